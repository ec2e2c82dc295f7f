/**
 * Every call of the console goes through `send`: it turns openapi-fetch's result into data or
 * a Problem, refreshes an expired access token once (single-use refresh token), and answers a
 * step-up demand (`mfa_required`) by asking for a code and retrying the call once.
 */
import { session } from '../session/session';
import { api } from './client';
import { isProblem, localProblem, type Problem } from './problem';
import { askForStepUpCode } from './step-up';

export type Outcome<T> = { ok: true; data: T; response: Response } | { ok: false; problem: Problem; response?: Response };

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export async function send<T>(call: () => Promise<FetchResult<T>>): Promise<Outcome<T>> {
  let outcome = await attempt(call);
  if (!outcome.ok && outcome.problem.code === 'unauthenticated' && session.refreshToken() && (await refreshSession())) {
    outcome = await attempt(call);
  }
  if (!outcome.ok && outcome.problem.code === 'mfa_required' && (await stepUp())) {
    outcome = await attempt(call);
  }
  return outcome;
}

async function attempt<T>(call: () => Promise<FetchResult<T>>): Promise<Outcome<T>> {
  let result: FetchResult<T>;
  try {
    result = await call();
  } catch (error) {
    return { ok: false, problem: localProblem(error instanceof Error ? error.message : 'The service could not be reached') };
  }
  if (result.response.ok) return { ok: true, data: result.data as T, response: result.response };
  const problem = isProblem(result.error) ? result.error : localProblem(`The service answered ${result.response.status}`);
  return { ok: false, problem, response: result.response };
}

/** A new token pair from the refresh token kept for this tab; false when the session is over. */
export async function refreshSession(workspaceId?: string): Promise<boolean> {
  const refreshToken = session.refreshToken();
  if (!refreshToken) return false;
  const outcome = await attempt(() =>
    api.POST('/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken, ...(workspaceId ? { workspace_id: workspaceId } : {}) } }),
  );
  if (!outcome.ok) {
    // A workspace switch that was refused leaves the refresh token usable (API.md); anything else ends the session.
    if (!workspaceId) session.signOut();
    return false;
  }
  session.signIn(outcome.data);
  return true;
}

async function stepUp(): Promise<boolean> {
  for (;;) {
    const answer = await askForStepUpCode();
    if (!answer) return false;
    const outcome = await attempt(() => api.POST('/v1/mfa/challenge', { body: answer }));
    if (outcome.ok) {
      session.replaceAccessToken(outcome.data.access_token);
      return true;
    }
    // A wrong code: ask again (the dialog shows why); anything else ends the attempt.
    if (outcome.problem.status !== 401 && outcome.problem.status !== 400) return false;
    lastStepUpProblem = outcome.problem;
  }
}

let lastStepUpProblem: Problem | undefined;

/** Why the previous step-up code was refused, once (the dialog shows it). */
export function takeStepUpProblem(): Problem | undefined {
  const problem = lastStepUpProblem;
  lastStepUpProblem = undefined;
  return problem;
}
