import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { answerMfaChallenge, resolveMfaSubject } from '../shared/identity/mfa';
import { route } from './routes/mfa-challenge';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  const subject = await resolveMfaSubject(deps, principal, input.body.mfa_token, request.header('authorization'));
  return ok(await answerMfaChallenge(deps, subject, input.body, request.sourceIp));
});
