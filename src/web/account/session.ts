// What the sign-in pages share: the session cookie, CSRF tokens, form bodies and the page frame.
//
// The session cookie (`anvil_session`) is HttpOnly, SameSite=Lax, and Secure when ROOT_URL is https or
// the request came over https (behind a proxy: X-Forwarded-Proto). Forms carry a CSRF token that must
// equal the `anvil_csrf` cookie (HttpOnly, SameSite=Strict; a page on another site can neither read nor
// set it), compared in constant time; a form without it, or with another, is refused before anything is
// read or written.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { Config } from '../../config.js';
import type { UserRow } from '../../db/schema/index.js';
import type { Auth } from '../../permissions/caller.js';
import { BadRequest, PayloadTooLarge } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import type { SessionHit } from '../../services/users/sessions.js';
import { html, type SafeHtml } from '../pages/html.js';
import { layout, PAGE_CSP } from '../pages/layout.js';

export const SESSION_COOKIE = 'anvil_session';
const CSRF_COOKIE = 'anvil_csrf';
const formLimit = 64 * 1024;

export function secureCookies(ctx: Context, config: Config): boolean {
  return config.rootUrl.startsWith('https:') || ctx.secure;
}

/** The session the request's cookie names, if it is live (a half-done two-factor sign-in included). */
export async function sessionOf(ctx: Context, services: Services): Promise<SessionHit | undefined> {
  const id = ctx.cookies.get(SESSION_COOKIE);
  return id ? services.sessions.resolve(id) : undefined;
}

/** The caller as the pages see them: the API's credentials, else a complete browser sign-in. */
export async function sessionAuth(ctx: Context, services: Services): Promise<Auth | undefined> {
  const hit = await sessionOf(ctx, services);
  return hit && !hit.twoFactorPending ? { actor: hit.user, signedIn: hit.user, method: 'password' } : undefined;
}

/** The session's user; otherwise a redirect to the sign-in page (or its second step) and undefined. */
export async function signedInUser(ctx: Context, services: Services, base: string): Promise<UserRow | undefined> {
  const hit = await sessionOf(ctx, services);
  if (hit && !hit.twoFactorPending) return hit.user;
  ctx.status = 303;
  ctx.redirect(`${base}user/${hit ? 'two_factor' : 'login'}?redirect_to=${encodeURIComponent(`${base}${ctx.path.slice(1)}`)}`);
  return undefined;
}

export function setSession(ctx: Context, config: Config, id: string | null): void {
  ctx.cookies.set(SESSION_COOKIE, id, {
    httpOnly: true, sameSite: 'lax', secure: secureCookies(ctx, config), path: '/', overwrite: true,
    ...(id ? { maxAge: config.sessionLifetimeMs } : { expires: new Date(0) }),
  });
}

/** The request's CSRF token, made (and its cookie set) when it has none. */
export function csrfToken(ctx: Context, config: Config): string {
  let token = ctx.cookies.get(CSRF_COOKIE);
  if (!token || !/^[\w-]{43}$/.test(token)) {
    token = randomBytes(32).toString('base64url');
    ctx.cookies.set(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: secureCookies(ctx, config), path: '/', overwrite: true });
  }
  return token;
}

/** Reads an `application/x-www-form-urlencoded` body (at most 64 KiB) and checks its CSRF token. */
export async function readForm(ctx: Context): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) throw new BadRequest('a form is expected');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > formLimit) throw new PayloadTooLarge('the form is too large');
    chunks.push(chunk);
  }
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  const cookie = ctx.cookies.get(CSRF_COOKIE) ?? '';
  const sent = form.get('_csrf') ?? '';
  if (!cookie || cookie.length !== sent.length || !timingSafeEqual(Buffer.from(cookie), Buffer.from(sent))) {
    throw new BadRequest('Invalid CSRF token.');
  }
  return form;
}

export const csrfField = (token: string): SafeHtml => html`<input type="hidden" name="_csrf" value="${token}">`;

/** Writes one of these pages: the shared layout, no scripts, never cached. */
export function sendPage(ctx: Context, base: string, title: string, body: SafeHtml, status = 200): void {
  ctx.status = status;
  ctx.set('Content-Security-Policy', `${PAGE_CSP}; frame-ancestors 'none'`);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = layout(title, [], body, base).value;
}

/** A path on this site to return to after signing in; anything else (another host, `//x`) is the home page. */
export function localTarget(raw: string | undefined | null, base: string): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || /[\0-\x1f]/.test(raw)) return base;
  return raw;
}
