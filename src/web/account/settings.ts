// The signed-in user's security settings (Gitea's /user/settings/security and the "Authorized OAuth2
// Applications" of /user/settings/applications): TOTP enrolment with its scratch code, disabling it, a
// new scratch code, revoking an application's grant, and signing out. Every form is CSRF-checked.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../../config.js';
import type { UserRow } from '../../db/schema/index.js';
import type { Services } from '../../services/index.js';
import { html } from '../pages/html.js';
import { csrfField, csrfToken, readForm, sendPage, signedInUser } from './session.js';
import { guarded } from './signin.js';

export function buildSettings(services: Services, config: Config): Router {
  const base = new URL(config.rootUrl).pathname;
  const router = new Router();

  const signedIn = (ctx: Context) => signedInUser(ctx, services, base);

  const securityPage = async (ctx: Context, user: UserRow, notice?: ReturnType<typeof html>) => {
    const token = csrfToken(ctx, config);
    const [enrolled, grants] = await Promise.all([services.twoFactor.enrolled(user.id), services.oauth.grantsOf(user.id)]);
    const twoFactor = enrolled
      ? html`<p class="two-factor-status">Two-factor authentication is enrolled.</p>
<form method="post" action="${base}user/settings/security/two_factor/regenerate_scratch">${csrfField(token)}<button type="submit">Regenerate scratch code</button></form>
<form method="post" action="${base}user/settings/security/two_factor/disable">${csrfField(token)}<button type="submit">Disable two-factor authentication</button></form>`
      : html`<p class="two-factor-status">Two-factor authentication is not enrolled.</p><p><a class="enroll" href="${base}user/settings/security/two_factor/enroll">Enroll</a></p>`;
    const apps = grants.length
      ? html`<table class="list grants">${grants.map((g) => html`<tr class="grant"><td>${g.applicationName}</td><td>${g.scope}</td><td>
<form method="post" action="${base}user/settings/applications/oauth2/revoke/${encodeURIComponent(g.grantId)}">${csrfField(token)}<button type="submit">Revoke</button></form></td></tr>`)}</table>`
      : html`<p class="muted">No application has access to your account.</p>`;
    sendPage(ctx, base, 'Security', html`<main class="settings"><h1>Security</h1>
<p>Signed in as <strong class="signed-in">${user.name}</strong></p>
${notice ?? ''}
<h2>Two-factor authentication</h2>${twoFactor}
<h2>Authorized OAuth2 applications</h2>${apps}
<form method="post" action="${base}user/logout">${csrfField(token)}<button type="submit" class="logout">Sign out</button></form>
</main>`);
  };

  const scratchNotice = (code: string) => html`<p class="flash scratch">Your scratch code is <code class="scratch-code">${code}</code>. Keep it safe: it is shown only once.</p>`;

  router.get('/user/settings/security', async (ctx) => {
    ctx.state.operationId = 'web.settings.security';
    const user = await signedIn(ctx);
    if (user) await securityPage(ctx, user);
  });
  router.get('/user/settings/applications', async (ctx) => {
    ctx.state.operationId = 'web.settings.applications';
    const user = await signedIn(ctx);
    if (user) await securityPage(ctx, user);
  });

  const enrolPage = (ctx: Context, user: UserRow, secret?: string, error?: string) => {
    const token = csrfToken(ctx, config);
    const proposal = secret ? { secret, uri: '' } : services.twoFactor.proposal(user.name);
    sendPage(ctx, base, 'Enroll two-factor authentication', html`<main class="enroll"><h1>Enroll two-factor authentication</h1>
${error ? html`<p class="flash error" role="alert">${error}</p>` : ''}
<p>Add this secret to your authenticator app, then enter the passcode it shows.</p>
<p>Secret: <code class="totp-secret">${proposal.secret}</code></p>
${proposal.uri ? html`<p>URI: <code class="totp-uri">${proposal.uri}</code></p>` : ''}
<form method="post" action="${base}user/settings/security/two_factor/enroll">${csrfField(token)}
<input type="hidden" name="secret" value="${proposal.secret}">
<p><label>Passcode<br><input name="passcode" autocomplete="one-time-code" required></label></p>
<p><button type="submit">Verify</button></p></form></main>`);
  };

  router.get('/user/settings/security/two_factor/enroll', async (ctx) => {
    ctx.state.operationId = 'web.settings.two_factor';
    const user = await signedIn(ctx);
    if (!user) return;
    if (await services.twoFactor.enrolled(user.id)) return ctx.redirect(`${base}user/settings/security`);
    enrolPage(ctx, user);
  });

  router.post('/user/settings/security/two_factor/enroll', async (ctx) => {
    ctx.state.operationId = 'web.settings.two_factor';
    await guarded(ctx, base, async () => {
      const form = await readForm(ctx);
      const user = await signedIn(ctx);
      if (!user) return;
      const secret = form.get('secret') ?? '';
      let scratch: string;
      try {
        scratch = await services.twoFactor.enrol(user.id, user.name, secret, form.get('passcode') ?? '');
      } catch (err) {
        if ((err as Error).message === 'the passcode is not correct') return enrolPage(ctx, user, secret, 'Your passcode is incorrect.');
        throw err;
      }
      await securityPage(ctx, user, scratchNotice(scratch));
    });
  });

  router.post('/user/settings/security/two_factor/disable', async (ctx) => {
    ctx.state.operationId = 'web.settings.two_factor';
    await guarded(ctx, base, async () => {
      await readForm(ctx);
      const user = await signedIn(ctx);
      if (!user) return;
      await services.twoFactor.disable(user.id);
      await securityPage(ctx, user, html`<p class="flash">Two-factor authentication is disabled.</p>`);
    });
  });

  router.post('/user/settings/security/two_factor/regenerate_scratch', async (ctx) => {
    ctx.state.operationId = 'web.settings.two_factor';
    await guarded(ctx, base, async () => {
      await readForm(ctx);
      const user = await signedIn(ctx);
      if (!user) return;
      if (!(await services.twoFactor.enrolled(user.id))) return securityPage(ctx, user);
      await securityPage(ctx, user, scratchNotice(await services.twoFactor.regenerateScratch(user.id)));
    });
  });

  router.post('/user/settings/applications/oauth2/revoke/:grantId', async (ctx) => {
    ctx.state.operationId = 'web.settings.revoke_grant';
    await guarded(ctx, base, async () => {
      await readForm(ctx);
      const user = await signedIn(ctx);
      if (!user) return;
      await services.oauth.revokeGrant(user.id, ctx.params.grantId!);
      await securityPage(ctx, user, html`<p class="flash">The application's access is revoked.</p>`);
    });
  });

  return router;
}
