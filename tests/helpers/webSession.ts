// A browser's side of the sign-in pages, over plain HTTP: a cookie jar, signing in through the real
// /user/login form (with its CSRF token), and GETs and form POSTs that keep the session's cookies and do
// not follow redirects (so a test sees the 303 and where it leads).
import * as assert from 'uvu/assert';
import type { TestApp, TestUser } from './harness.js';

export class WebSession {
  readonly cookies = new Map<string, string>();

  constructor(readonly app: TestApp) {}

  private absorb(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=/i.test(a) && new Date(a.split('=')[1]!).getTime() < Date.now());
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return { ...(cookie ? { Cookie: cookie } : {}), ...extra };
  }

  async get(path: string): Promise<Response> {
    return this.absorb(await fetch(`${this.app.url}${path}`, { headers: this.headers(), redirect: 'manual' }));
  }

  /** The session's CSRF token (its cookie, set by any page with a form: the sign-in page first). */
  get csrf(): string {
    const token = this.cookies.get('anvil_csrf');
    assert.ok(token, 'a CSRF cookie is set');
    return token!;
  }

  /** The CSRF token a page's form carries. */
  static csrfOf(page: string): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(page);
    assert.ok(m, 'the page has a form with a CSRF token');
    return m![1]!;
  }

  /**
   * Posts a form. Its CSRF token is the one the form at `formPage` carries (fetched first), unless
   * `csrf` gives one (or null for none).
   */
  async post(path: string, fields: Record<string, string>, opts: { formPage?: string; csrf?: string | null } = {}): Promise<Response> {
    const csrf = opts.csrf !== undefined ? opts.csrf : WebSession.csrfOf(await (await this.get(opts.formPage ?? path)).text());
    const body = new URLSearchParams({ ...(csrf === null ? {} : { _csrf: csrf }), ...fields });
    return this.absorb(await fetch(`${this.app.url}${path}`, {
      method: 'POST', body, redirect: 'manual', headers: this.headers({ 'Content-Type': 'application/x-www-form-urlencoded' }),
    }));
  }
}

/** Signs `user` in through the sign-in form; answers the session. */
export async function signIn(app: TestApp, user: TestUser): Promise<WebSession> {
  const s = new WebSession(app);
  const res = await s.post('/user/login', { user_name: user.username, password: user.password }, { formPage: '/user/login' });
  assert.is(res.status, 303, `sign-in of ${user.username}`);
  assert.ok(s.cookies.has('anvil_session'), 'a session cookie is set');
  return s;
}
