/**
 * The page the password reset email links to (`/reset-password?token=…`), served by `npm start`
 * on the API's origin until the web console takes the path over. Deliberately tiny: a form
 * and a script file of its own (no inline code, so the CSP allows scripts from this origin
 * only), posting to `POST /v1/auth/password/reset`. No referrer leaves the page: the token is
 * in its URL.
 */
import type { StaticPage } from './server';

const securityHeaders = {
  'content-security-policy': "default-src 'none'; script-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Tessera: choose a new password</title></head>
<body>
<main>
<h1>Choose a new password</h1>
<form id="reset">
<label for="new_password">New password (12 to 128 characters)</label>
<input id="new_password" name="new_password" type="password" minlength="12" maxlength="128" autocomplete="new-password" required>
<button type="submit">Set the password</button>
</form>
<p id="result" role="status"></p>
</main>
<script src="/reset-password.js"></script>
</body>
</html>
`;

const script = `'use strict';
const form = document.getElementById('reset');
const result = document.getElementById('result');
const token = new URLSearchParams(location.search).get('token');
if (!token) {
  form.hidden = true;
  result.textContent = 'This link has no token: open the link from the email again.';
}
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const res = await fetch('/v1/auth/password/reset', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, new_password: form.elements.new_password.value }),
  });
  if (res.status === 204) {
    form.hidden = true;
    result.textContent = 'Your new password is set: sign in with it.';
  } else {
    const problem = await res.json().catch(() => ({}));
    result.textContent = problem.detail || 'The password could not be set (' + res.status + ').';
  }
});
`;

export const resetPasswordPages: Record<string, StaticPage> = {
  '/reset-password': { contentType: 'text/html; charset=utf-8', body: html, headers: securityHeaders },
  '/reset-password.js': { contentType: 'text/javascript; charset=utf-8', body: script, headers: securityHeaders },
};
