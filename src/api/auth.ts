// Who is calling: Basic (username or e-mail, password or token), `token`/`Bearer` headers,
// `?token=`/`?access_token=` (deprecated), and Sudo for site administrators.
import type { Context } from 'koa';
import { Forbidden, NotFound, Unauthorized } from '../services/errors.js';
import type { Services } from '../services/index.js';
import { looksLikeToken, scopesAllow, type ScopeCategory } from '../services/users/tokens.js';
import { actionsUser, anonymous, type Auth } from '../permissions/caller.js';
import type { UserRow } from '../db/schema/index.js';

export { anonymous, type Auth };

function firstQuery(ctx: Context, name: string): string | undefined {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[0] : v;
}

/** An OAuth2 access token (#36): opaque, longer than a personal token, base64url. */
const looksLikeOAuthToken = (s: string) => /^[\w-]{41,200}$/.test(s);

async function oauthToken(services: Services, token: string): Promise<Auth | undefined> {
  const hit = looksLikeOAuthToken(token) ? await services.oauth.resolveAccessToken(token) : undefined;
  return hit && { actor: hit.user, signedIn: hit.user, method: 'token', scopes: hit.scopes };
}

async function byToken(services: Services, token: string): Promise<Auth> {
  if (!looksLikeToken(token)) {
    const oauth = await oauthToken(services, token);
    if (oauth) return oauth;
    throw new Unauthorized('user does not exist or token is invalid');
  }
  const hit = await services.tokens.resolve(token.toLowerCase());
  if (!hit) {
    // A running Actions task's token (GITEA_TOKEN) acts as gitea-actions on its own repository.
    const task = await services.runners.taskAccess(token);
    if (task) return { actor: actionsUser, signedIn: actionsUser, method: 'token', task };
    throw new Unauthorized('user does not exist or token is invalid');
  }
  return { actor: hit.user, signedIn: hit.user, method: 'token', scopes: hit.token.scopes };
}

/** A password sign-in of a user with a second factor needs the current passcode in `X-Gitea-OTP` (as Gitea). */
async function passwordSignIn(ctx: Context, services: Services, user: UserRow): Promise<Auth> {
  if (!(await services.twoFactor.basicAllowed(user.id, ctx.get('X-Gitea-OTP') || undefined))) {
    throw new Unauthorized('invalid provided OTP');
  }
  return { actor: user, signedIn: user, method: 'password' };
}

/** Reads the credentials of a request; wrong credentials are 401 even where anonymous calls are allowed. */
export async function authenticate(ctx: Context, services: Services): Promise<Auth> {
  const header = ctx.get('Authorization').trim();
  let auth: Auth = anonymous;
  const [scheme = '', ...rest] = header.split(/\s+/);
  const value = rest.join(' ');
  if (header) {
    switch (scheme.toLowerCase()) {
      case 'basic': {
        const decoded = Buffer.from(value, 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        if (colon < 0) throw new Unauthorized('invalid basic authentication');
        const login = decoded.slice(0, colon);
        const secret = decoded.slice(colon + 1);
        // No account has a NUL in its name or password, and PostgreSQL cannot even compare one.
        if (decoded.includes('\0')) throw new Unauthorized('user does not exist or password is incorrect');
        // Renovate and GitHub-style clients send the token as the username, with an empty password or
        // `x-oauth-basic` (Gitea accepts both).
        if ((secret === '' || secret === 'x-oauth-basic') && (looksLikeToken(login) || looksLikeOAuthToken(login))) {
          auth = await byToken(services, login);
          break;
        }
        // An OAuth2 access token as the password (git over HTTP with git-credential-oauth: `oauth2`).
        if (looksLikeOAuthToken(secret) && !looksLikeToken(secret)) {
          const oauth = await oauthToken(services, secret);
          const loginLower = login.toLowerCase();
          if (oauth && (loginLower === 'oauth2' || loginLower === oauth.actor!.lowerName || loginLower === oauth.actor!.email.toLowerCase())) {
            auth = oauth;
            break;
          }
        }
        // A token as the password (git over HTTP) is tried first: tokens are never throttled, and a
        // valid one costs no password hash.
        const hit = looksLikeToken(secret) ? await services.tokens.resolve(secret.toLowerCase()) : undefined;
        if (hit) {
          const loginLower = login.toLowerCase();
          // An empty login (`https://:TOKEN@host/…`, as Gitea's mirrors send it) names no one else.
          if (loginLower !== '' && loginLower !== hit.user.lowerName && loginLower !== hit.user.email.toLowerCase()
            && loginLower !== 'oauth2' && loginLower !== secret.toLowerCase()) {
            // A user whose password happens to look like someone else's token still signs in with it.
            const user = await services.users.authenticate(login, secret);
            if (!user) throw new Unauthorized('user does not exist or token is invalid');
            auth = await passwordSignIn(ctx, services, user);
            break;
          }
          auth = { actor: hit.user, signedIn: hit.user, method: 'token', scopes: hit.token.scopes };
          break;
        }
        const user = await services.users.authenticate(login, secret);
        if (!user) throw new Unauthorized(`user does not exist or ${looksLikeToken(secret) ? 'token is invalid' : 'password is incorrect'}`);
        auth = await passwordSignIn(ctx, services, user);
        break;
      }
      case 'token':
      case 'bearer':
        auth = await byToken(services, value);
        break;
      default:
        throw new Unauthorized('unsupported authorization scheme');
    }
  } else {
    // An empty `?token=` is no token, as in Gitea.
    const token = firstQuery(ctx, 'token') || firstQuery(ctx, 'access_token');
    if (token) {
      auth = await byToken(services, token);
      ctx.set('Warning', '299 anvil "token and access_token API authentication is deprecated"');
    }
  }
  if (auth.actor && (!auth.actor.isActive || auth.actor.prohibitLogin)) {
    throw new Forbidden('This account is prohibited from signing in, please contact your site administrator.');
  }
  const sudo = ctx.get('Sudo') || firstQuery(ctx, 'sudo');
  if (sudo) {
    if (!auth.actor?.isAdmin) throw new Forbidden('Only administrators allowed to sudo.');
    const target = sudo.includes('\0') ? undefined : await services.users.byName(sudo);
    if (!target || target.type === 'Organization') throw new NotFound();
    auth = { ...auth, actor: target };
  }
  return auth;
}

export interface AccessRule {
  /** Anonymous callers allowed (the operation's security lists `{}`). */
  anonymous: boolean;
  /** Only Basic authentication with a password (token creation). */
  basicOnly: boolean;
  /** Token scope categories the operation needs; empty for none. */
  scopes: ScopeCategory[];
  write: boolean;
}

/** Whether the caller may read (or write) `category` as far as its token goes: always, without a token. */
export function tokenAllows(auth: Auth, category: ScopeCategory, write = false): boolean {
  return auth.method !== 'token' || !auth.scopes || scopesAllow(auth.scopes, category, write);
}

/** The checks every operation shares, in Gitea's order: signed in, token scope, site admin. */
export function authorize(auth: Auth, rule: AccessRule): void {
  if (!rule.anonymous && !auth.actor) throw new Unauthorized('token is required');
  if (rule.basicOnly && auth.method !== 'password') throw new Unauthorized('basic authentication with a password is required');
  // Only a token's sign-in carries scopes (a password may do anything its user may).
  if (auth.scopes) {
    const missing = rule.scopes.filter((c) => !scopesAllow(auth.scopes!, c, rule.write));
    if (missing.length) {
      const need = missing.map((c) => `${rule.write ? 'write' : 'read'}:${c}`).join(' ');
      throw new Forbidden(`token does not have at least one of required scope(s): [${need}]`);
    }
  }
  if (rule.scopes.includes('admin') && !auth.actor?.isAdmin) throw new Forbidden('user should be the site admin');
}
