// Sign-in (Gitea's /user/login), the second step for accounts with TOTP (/user/two_factor, or a scratch
// code at /user/two_factor_scratch), and sign-out (/user/logout). The password check is the API's
// (UserService.authenticate), so the same throttle locks out password guessing on every process; wrong
// passcodes count too.
import Router from '@koa/router';
import type { Context } from 'koa';
import { errorAnswer } from '../../api/errors.js';
import type { Config } from '../../config.js';
import type { Services } from '../../services/index.js';
import { html, type SafeHtml } from '../pages/html.js';
import { csrfField, csrfToken, localTarget, readForm, sendPage, SESSION_COOKIE, sessionOf, setSession } from './session.js';

/** The provider's own cookies, cleared at sign-out so that the next authorization asks who is there. */
const providerCookies = ['_anvil_oidc_session', '_anvil_oidc_session.sig', '_anvil_oidc_session.legacy', '_anvil_oidc_session.legacy.sig'];

function message(text: string | undefined): SafeHtml {
  return text ? html`<p class="flash error" role="alert">${text}</p>` : html``;
}

/** Runs a page's work; a domain error (a locked account, a forged form) is a page with its status. */
export async function guarded(ctx: Context, base: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    // The provider's own errors (an interaction that expired, a missing cookie) carry a 4xx status.
    const own = err as { status?: number; message?: string; error_description?: string };
    const client = typeof own?.status === 'number' && own.status >= 400 && own.status < 500;
    const { status, message: text, unexpected, headers } = client
      ? { status: own.status!, message: own.error_description ?? own.message ?? '', unexpected: false, headers: undefined }
      : errorAnswer(err);
    if (unexpected) throw err;
    if (headers) ctx.set(headers);
    sendPage(ctx, base, String(status), html`<main class="error"><h1>${status}</h1><p>${text}</p></main>`, status);
  }
}

export function buildSignIn(services: Services, config: Config): Router {
  const base = new URL(config.rootUrl).pathname;
  const router = new Router();

  const loginPage = (ctx: Context, target: string, error?: string, name = '', status = 200) => {
    const token = csrfToken(ctx, config);
    sendPage(ctx, base, 'Sign in', html`<main class="signin"><h1>Sign in</h1>${message(error)}
<form method="post" action="${base}user/login">${csrfField(token)}
<input type="hidden" name="redirect_to" value="${target}">
<p><label>Username or e-mail address<br><input name="user_name" value="${name}" autocomplete="username" required autofocus></label></p>
<p><label>Password<br><input name="password" type="password" autocomplete="current-password" required></label></p>
<p><button type="submit">Sign in</button></p>
</form></main>`, status);
  };

  const secondStepPage = (ctx: Context, target: string, scratch: boolean, error?: string) => {
    const token = csrfToken(ctx, config);
    const action = scratch ? 'user/two_factor_scratch' : 'user/two_factor';
    sendPage(ctx, base, 'Two-factor authentication', html`<main class="two-factor"><h1>Two-factor authentication</h1>${message(error)}
<form method="post" action="${base}${action}">${csrfField(token)}
<input type="hidden" name="redirect_to" value="${target}">
<p><label>${scratch ? 'Scratch code' : 'Passcode'}<br><input name="${scratch ? 'token' : 'passcode'}" autocomplete="one-time-code" required autofocus></label></p>
<p><button type="submit">Verify</button></p>
</form>
${scratch ? '' : html`<p><a href="${base}user/two_factor_scratch?redirect_to=${encodeURIComponent(target)}">Use a scratch code</a></p>`}
</main>`);
  };

  const target = (ctx: Context, form?: URLSearchParams) => {
    const q = ctx.query.redirect_to;
    return localTarget(form ? form.get('redirect_to') : Array.isArray(q) ? q[0] : q, base);
  };

  router.get('/user/login', async (ctx) => {
    ctx.state.operationId = 'web.login';
    const hit = await sessionOf(ctx, services);
    if (hit && !hit.twoFactorPending) return ctx.redirect(target(ctx));
    loginPage(ctx, target(ctx));
  });

  router.post('/user/login', async (ctx) => {
    ctx.state.operationId = 'web.login';
    await guarded(ctx, base, async () => {
      const form = await readForm(ctx);
      const to = target(ctx, form);
      const login = form.get('user_name') ?? '';
      const password = form.get('password') ?? '';
      const user = login && password && !login.includes('\0') && !password.includes('\0') ? await services.users.authenticate(login, password) : null;
      if (!user) return loginPage(ctx, to, 'Username or password is incorrect.', login);
      const pending = await services.twoFactor.enrolled(user.id);
      const old = ctx.cookies.get(SESSION_COOKIE);
      if (old) await services.sessions.destroy(old);
      setSession(ctx, config, await services.sessions.create(user.id, pending));
      ctx.status = 303;
      ctx.redirect(pending ? `${base}user/two_factor?redirect_to=${encodeURIComponent(to)}` : to);
    });
  });

  for (const scratch of [false, true]) {
    const path = scratch ? '/user/two_factor_scratch' : '/user/two_factor';
    router.get(path, async (ctx) => {
      ctx.state.operationId = 'web.two_factor';
      const hit = await sessionOf(ctx, services);
      if (!hit?.twoFactorPending) return ctx.redirect(`${base}user/login`);
      secondStepPage(ctx, target(ctx), scratch);
    });
    router.post(path, async (ctx) => {
      ctx.state.operationId = 'web.two_factor';
      await guarded(ctx, base, async () => {
        const form = await readForm(ctx);
        const hit = await sessionOf(ctx, services);
        if (!hit?.twoFactorPending) return ctx.redirect(`${base}user/login`);
        const to = target(ctx, form);
        const ok = scratch
          ? await services.twoFactor.useScratch(hit.user.id, form.get('token') ?? '')
          : await services.twoFactor.checkPasscode(hit.user.id, hit.user.name, form.get('passcode') ?? '');
        if (!ok) return secondStepPage(ctx, to, scratch, scratch ? 'Your scratch code is incorrect.' : 'Your passcode is incorrect.');
        // A new session id once both factors are in: the half-signed-in id is worth nothing.
        await services.sessions.destroy(ctx.cookies.get(SESSION_COOKIE)!);
        setSession(ctx, config, await services.sessions.create(hit.user.id, false));
        ctx.status = 303;
        // As Gitea, a used scratch code leads to the security settings (enrol again or make a new code).
        ctx.redirect(scratch ? `${base}user/settings/security` : to);
      });
    });
  }

  router.post('/user/logout', async (ctx) => {
    ctx.state.operationId = 'web.logout';
    await guarded(ctx, base, async () => {
      await readForm(ctx);
      const id = ctx.cookies.get(SESSION_COOKIE);
      if (id) await services.sessions.destroy(id);
      setSession(ctx, config, null);
      for (const name of providerCookies) ctx.cookies.set(name, null, { path: '/', expires: new Date(0), overwrite: true });
      ctx.status = 303;
      ctx.redirect(base);
    });
  });

  return router;
}
