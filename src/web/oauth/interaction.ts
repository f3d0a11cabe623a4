// The provider's two user-facing steps (oidc-provider "interactions"): who is there (our sign-in page,
// whose session decides) and whether they grant the application access (Gitea's authorize page). An
// application registered with skip_secondary_authorization, or a scope already granted, asks nothing.
import Router from '@koa/router';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { Config } from '../../config.js';
import { BadRequest } from '../../services/errors.js';
import { enabledBuiltIns } from '../../services/oauth/defaults.js';
import type { Services } from '../../services/index.js';
import { html } from '../pages/html.js';
import { csrfField, csrfToken, readForm, sendPage, sessionOf } from '../account/session.js';
import { guarded } from '../account/signin.js';
import { interactionPath, mountPrefix } from './provider.js';

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/** `provider`: the provider, built on first use (app.ts). */
export function buildInteractions(provider: () => Promise<Provider>, services: Services, config: Config): Router {
  const base = new URL(config.rootUrl).pathname;
  const router = new Router();
  const mount = mountPrefix(config);
  router.use((ctx, next) => {
    mount(ctx.req);
    return next();
  });

  const finish = async (ctx: Context, result: Parameters<Provider['interactionResult']>[2]) => {
    const to = await (await provider()).interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: true });
    ctx.status = 303;
    ctx.redirect(to);
  };

  /** Grants what the authorization asks for (OpenID scopes, Gitea's token scopes, claims) and finishes it. */
  const grant = async (ctx: Context, details: Details, accountId: string) => {
    const clientId = details.params.client_id as string;
    const { Grant } = await provider();
    const g = details.grantId ? await Grant.find(details.grantId) : new Grant({ accountId, clientId });
    if (!g) throw new Error('grant vanished');
    const missing = (details.prompt.details ?? {}) as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) g.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) g.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) g.addResourceScope(indicator, scopes.join(' '));
    const grantId = await g.save();
    await finish(ctx, { consent: { grantId } });
  };

  const appName = async (clientId: string) => {
    const builtIn = enabledBuiltIns(config.oauth2.defaultApplications).find((a) => a.clientId === clientId);
    if (builtIn) return { name: builtIn.name, skip: false };
    const app = await services.oauthApps.byClientId(clientId);
    return { name: app?.name ?? clientId, skip: !!app?.skipSecondaryAuthorization };
  };

  router.get(`${interactionPath}/:uid`, async (ctx) => {
    ctx.state.operationId = 'oauth.interaction';
    await guarded(ctx, base, async () => {
      const details = await (await provider()).interactionDetails(ctx.req, ctx.res);
      if (details.uid !== ctx.params.uid) throw new BadRequest('this authorization is not the one in progress');
      const hit = await sessionOf(ctx, services);
      const user = hit && !hit.twoFactorPending ? hit.user : undefined;
      if (details.prompt.name === 'login') {
        if (!user) {
          ctx.status = 303;
          return ctx.redirect(`${base}user/login?redirect_to=${encodeURIComponent(`${base}${ctx.path.slice(1)}`)}`);
        }
        return finish(ctx, { login: { accountId: String(user.id) } });
      }
      if (!user || String(user.id) !== details.session?.accountId) {
        // Signed out (or in as someone else) since: start the sign-in again.
        return finish(ctx, { error: 'login_required', error_description: 'the user is not signed in' });
      }
      const clientId = details.params.client_id as string;
      const app = await appName(clientId);
      if (app.skip) return grant(ctx, details, String(user.id));
      const scope = String(details.params.scope ?? '').split(' ').filter((s) => s && s !== 'all');
      const redirect = String(details.params.redirect_uri ?? '');
      const token = csrfToken(ctx, config);
      sendPage(ctx, base, 'Authorize application', html`<main class="authorize"><h1>Authorize application</h1>
<p><strong class="app-name">${app.name}</strong> wants to access your account <strong>${user.name}</strong>.</p>
${scope.length ? html`<p>Requested scopes:</p><ul class="scopes">${scope.map((s) => html`<li>${s}</li>`)}</ul>` : html`<p>It asks for full access to your account.</p>`}
${redirect ? html`<p class="muted">You will be sent to ${redirect}</p>` : ''}
<form method="post" action="${base}${interactionPath.slice(1)}/${details.uid}/grant">${csrfField(token)}
<button type="submit" name="granted" value="true" id="authorize-app">Authorize Application</button>
<button type="submit" name="granted" value="false" id="cancel-app">Cancel</button>
</form></main>`);
    });
  });

  router.post(`${interactionPath}/:uid/grant`, async (ctx) => {
    ctx.state.operationId = 'oauth.grant';
    await guarded(ctx, base, async () => {
      const form = await readForm(ctx);
      const details = await (await provider()).interactionDetails(ctx.req, ctx.res);
      if (details.uid !== ctx.params.uid || details.prompt.name !== 'consent') throw new BadRequest('this authorization is not the one in progress');
      const hit = await sessionOf(ctx, services);
      if (!hit || hit.twoFactorPending || String(hit.user.id) !== details.session?.accountId) {
        return finish(ctx, { error: 'login_required', error_description: 'the user is not signed in' });
      }
      if (form.get('granted') !== 'true') return finish(ctx, { error: 'access_denied', error_description: 'the user denied the request' });
      await grant(ctx, details, String(hit.user.id));
    });
  });

  return router;
}
