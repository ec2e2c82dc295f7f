/**
 * What a browser does in an SSO flow, in small steps a test controls: requests that keep
 * cookies per host and never follow redirects by themselves.
 */
export interface BrowserResponse {
  status: number;
  /** The absolute Location of a redirect. */
  location: string | undefined;
  text: string;
}

export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  get(url: string): Promise<BrowserResponse> {
    return this.send(url, { method: 'GET' });
  }

  postForm(url: string, fields: Record<string, string>): Promise<BrowserResponse> {
    return this.send(url, { method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }

  private async send(url: string, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<BrowserResponse> {
    const target = new URL(url);
    const cookies = this.jar.get(target.host) ?? new Map<string, string>();
    const headers: Record<string, string> = { ...init.headers };
    if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(target, { method: init.method, headers, redirect: 'manual', ...(init.body !== undefined ? { body: init.body } : {}) });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(target.host, cookies);
    const location = res.headers.get('location');
    return { status: res.status, location: location ? new URL(location, target).href : undefined, text: await res.text() };
  }
}
