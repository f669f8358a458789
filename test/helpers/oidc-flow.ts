import type { LightMyRequestResponse } from 'fastify';
import type { TestApp, TokenPairBody } from './app.js';

/** Cookies of one origin, as a browser keeps them (path and expiry ignored but for removal). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

const setCookiesOf = (response: LightMyRequestResponse): string[] => {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : [header].flat().map(String);
};

/** One browser: a cookie jar for Deskbook and one for the provider. */
export class OidcBrowser {
  readonly app = new CookieJar();
  private readonly provider = new CookieJar();

  constructor(
    private readonly t: TestApp,
    private readonly publicUrl: string,
  ) {}

  /** GET /api/auth/oidc/start: answers the provider URL it redirects to. */
  async start(): Promise<string> {
    const response = await this.t.request({ method: 'GET', url: '/api/auth/oidc/start' });
    if (response.statusCode !== 303) throw new Error(`start answered ${response.statusCode}: ${response.body}`);
    this.app.take(setCookiesOf(response));
    return String(response.headers.location);
  }

  /**
   * Follows redirects at the provider, signing in as `login` on its login form and consenting,
   * until the provider sends the browser back to Deskbook: answers that callback URL.
   */
  async throughProvider(url: string, login: string): Promise<string> {
    let next: { url: string; init?: RequestInit } = { url };
    for (let step = 0; step < 20; step++) {
      if (next.url.startsWith(this.publicUrl)) return next.url;
      const response = await fetch(next.url, { redirect: 'manual', ...next.init, headers: { ...next.init?.headers, cookie: this.provider.header() } });
      this.provider.take(response.headers.getSetCookie());
      if (response.status >= 300 && response.status < 400) {
        next = { url: new URL(response.headers.get('location')!, next.url).href };
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) throw new Error(`provider answered ${response.status}: ${html.slice(0, 500)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form at the provider: ${html.slice(0, 500)}`);
      const fields: Record<string, string> = html.includes('name="login"') ? { prompt: 'login', login, password: 'any-password' } : { prompt: 'consent' };
      next = {
        url: new URL(action, next.url).href,
        init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() },
      };
    }
    throw new Error('too many redirects at the provider');
  }

  /** GET the callback URL at Deskbook (with this browser's cookie). */
  async callback(callbackUrl: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const url = callbackUrl.slice(this.publicUrl.length);
    const response = await this.t.request({ method: 'GET', url, headers: { cookie: this.app.header(), ...headers } });
    // The callback replaces the sign-in's cookie by the one that binds the one-time code.
    this.app.take(setCookiesOf(response));
    return response;
  }

  async exchange(code: string): Promise<LightMyRequestResponse> {
    const response = await this.t.request({ method: 'POST', url: '/api/auth/oidc/exchange', payload: { code }, headers: { cookie: this.app.header() } });
    this.app.take(setCookiesOf(response));
    return response;
  }

  /** The whole sign-in; answers the callback's answer and, when it carried a code, the exchange's. */
  async signIn(
    login: string,
  ): Promise<{ callback: LightMyRequestResponse; fragment: URLSearchParams; exchange?: LightMyRequestResponse; pair?: TokenPairBody }> {
    const callback = await this.callback(await this.throughProvider(await this.start(), login));
    const fragment = fragmentOf(callback);
    const code = fragment.get('code');
    if (!code) return { callback, fragment };
    const exchange = await this.exchange(code);
    return { callback, fragment, exchange, pair: exchange.statusCode === 200 ? exchange.json<TokenPairBody>() : undefined };
  }
}

/** The fragment of the web app URL a callback redirected to (#code=… or #error=…). */
export function fragmentOf(response: LightMyRequestResponse): URLSearchParams {
  const location = String(response.headers.location ?? '');
  return new URLSearchParams(location.includes('#') ? location.slice(location.indexOf('#') + 1) : '');
}
