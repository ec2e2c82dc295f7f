import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { resolveMfaSubject } from '../shared/identity/mfa';
import { startTotpEnrollment } from '../shared/identity/totp-enrollment-start';
import { route } from './routes/mfa-enroll-start';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  const subject = await resolveMfaSubject(deps, principal, input.body.mfa_token, request.header('authorization'));
  return ok(await startTotpEnrollment(deps, subject, { currentPassword: input.body.current_password }, request.sourceIp));
});
