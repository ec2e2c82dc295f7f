/**
 * The demo sets itself up as a person would, through the public API (the same calls the
 * README's walkthrough makes): sign in, enroll TOTP, create the connections, test and run
 * them, configure the IdP. A refusal stops the demo with the API's own problem detail.
 */
import { totpCode } from '../../../shared/crypto/totp';

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

export class DemoApi {
  constructor(private readonly baseUrl: string, private token?: string) {}

  authorize(token: string): void {
    this.token = token;
  }

  async call(method: string, path: string, body?: unknown, expected: number[] = [200, 201, 202, 204]): Promise<ApiAnswer> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    const parsed = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (!expected.includes(res.status)) {
      const detail = typeof parsed.detail === 'string' ? parsed.detail : text;
      throw new Error(`${method} ${path} answered ${res.status}: ${detail}`);
    }
    return { status: res.status, body: parsed };
  }

  /** Signs in with the password and answers the challenge with the current TOTP code. */
  async signIn(tenant: string, email: string, password: string, totpSecret: string): Promise<void> {
    const login = await this.call('POST', '/v1/auth/login', { tenant, email, password });
    const mfaToken = login.body.mfa_token;
    if (typeof mfaToken !== 'string') throw new Error('the demo tenant signed in without MFA');
    const challenge = await this.call('POST', '/v1/mfa/challenge', { mfa_token: mfaToken, code: await totpCode(totpSecret, Date.now() / 1000) });
    this.authorize(String(challenge.body.access_token));
  }
}
