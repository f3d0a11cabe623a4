// The OAuth2 / OpenID Connect provider (#36): oidc-provider (panva's certified implementation) mounted at
// Gitea's paths. Everything it keeps goes through the Adapter below into the database (services/oauth),
// its signing keys and cookie keys are made once and shared, so any process may serve any step.
//
// Around the library, only what Gitea's clients need: the token endpoint also takes a JSON body, and a
// client secret sent in the body is handed on as Basic (the registered method); client secrets are kept
// hashed, so the comparison is against the hash. The sign-in and consent steps are our pages
// (interaction.ts); a provider session counts only while the browser's anvil sign-in does.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';
import type { Adapter, AdapterPayload, Configuration } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { claimsByScope, toClaims } from '../../convert/oidcClaims.js';
import { secretMatches } from '../../services/oauth/applications.js';
import { enabledBuiltIns } from '../../services/oauth/defaults.js';
import { grantTokenScopes, type ModelPayload } from '../../services/oauth/store.js';
import type { Services } from '../../services/index.js';
import { escapeHtml } from '../pages/html.js';
import { SESSION_COOKIE } from '../account/session.js';

export const interactionPath = '/login/oauth/interaction';
const bodyLimit = 64 * 1024;

/** Gitea's endpoint paths. */
const routes = {
  authorization: '/login/oauth/authorize',
  token: '/login/oauth/access_token',
  userinfo: '/login/oauth/userinfo',
  jwks: '/login/oauth/keys',
  introspection: '/login/oauth/introspect',
  revocation: '/login/oauth/revoke',
  end_session: '/login/oauth/logout',
  code_verification: '/login/oauth/device',
  device_authorization: '/login/oauth/device/auth',
  pushed_authorization_request: '/login/oauth/request',
  registration: '/login/oauth/register',
  backchannel_authentication: '/login/oauth/backchannel',
};

/**
 * Behind a proxy that serves anvil under a path (`ROOT_URL=https://example.com/git/`, the prefix stripped
 * before anvil sees the request), the library must still name its URLs with the prefix: it takes the
 * mount path from `req.originalUrl`, as under Express.
 */
export function mountPrefix(config: Config): (req: IncomingMessage) => void {
  const prefix = new URL(config.rootUrl).pathname.replace(/\/$/, '');
  return (req) => {
    if (prefix) (req as IncomingMessage & { originalUrl?: string }).originalUrl = `${prefix}${req.url ?? '/'}`;
  };
}

/** Loopback http addresses: a public client registered with one may use any port (RFC 8252). */
const loopback = (uri: string) => /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(:\d+)?(\/|$)/.test(uri);

function adapterClass(services: Services, config: Config) {
  const clientMetadata = async (id: string): Promise<AdapterPayload | undefined> => {
    const builtIn = enabledBuiltIns(config.oauth2.defaultApplications).find((a) => a.clientId === id);
    const common = { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code' as const] };
    if (builtIn) {
      return { ...common, client_id: id, client_name: builtIn.name, application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: builtIn.redirectUris.filter(loopback) };
    }
    const app = await services.oauthApps.byClientId(id);
    if (!app) return undefined;
    const redirect_uris = app.redirectUris;
    if (app.confidentialClient) {
      // The secret's hash stands in for the secret: compareClientSecret (below) hashes what is sent.
      return { ...common, client_id: id, client_name: app.name, client_secret: app.clientSecretHash, application_type: 'web', token_endpoint_auth_method: 'client_secret_basic', redirect_uris };
    }
    const native = redirect_uris.every((u) => loopback(u) || !/^https?:/.test(u));
    return { ...common, client_id: id, client_name: app.name, application_type: native ? 'native' : 'web', token_endpoint_auth_method: 'none', redirect_uris };
  };

  return class DatabaseAdapter implements Adapter {
    constructor(private readonly name: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await services.oauth.upsert(this.name, id, payload as ModelPayload, expiresIn);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.name === 'Client') return clientMetadata(id);
      return (await services.oauth.find(this.name, id)) as AdapterPayload | undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return (await services.oauth.findByUid(this.name, uid)) as AdapterPayload | undefined;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return (await services.oauth.findByUserCode(this.name, userCode)) as AdapterPayload | undefined;
    }

    async consume(id: string): Promise<void> {
      await services.oauth.consume(this.name, id);
    }

    async destroy(id: string): Promise<void> {
      await services.oauth.destroy(this.name, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await services.oauth.revokeByGrantId(grantId);
    }
  };
}

export async function buildProvider(services: Services, config: Config, log: Logger): Promise<Provider> {
  // oidc-provider and its dependencies load here, on first use, not at every start (#41).
  const { default: Provider, interactionPolicy } = await import('oidc-provider');
  const { jwks, cookieKeys } = await services.oauth.keys();
  const secure = config.rootUrl.startsWith('https:');
  const { Check, base } = interactionPolicy;
  const policy = base();
  // The provider's session lasts only as long as the browser's anvil sign-in, for the same user.
  policy.get('login')!.checks.add(new Check('anvil_signed_out', 'the anvil sign-in ended', async (ctx) => {
    const id = ctx.cookies.get(SESSION_COOKIE);
    const hit = id ? await services.sessions.resolve(id) : undefined;
    return !hit || hit.twoFactorPending || String(hit.user.id) !== ctx.oidc.session?.accountId ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT;
  }));

  const configuration: Configuration = {
    adapter: adapterClass(services, config),
    jwks: jwks as Configuration['jwks'],
    cookies: {
      keys: cookieKeys,
      names: { session: '_anvil_oidc_session', interaction: '_anvil_oidc_interaction', resume: '_anvil_oidc_resume' },
      long: { signed: true, secure, sameSite: 'lax', httpOnly: true },
      short: { signed: true, secure, sameSite: 'lax', httpOnly: true },
    },
    routes,
    scopes: ['openid', 'offline_access', 'profile', 'email', 'groups', 'all', ...grantTokenScopes],
    claims: { ...claimsByScope, openid: ['sub'] } as unknown as Configuration['claims'],
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { methods: ['S256'], required: (_ctx, client) => client.clientAuthMethod === 'none' },
    features: {
      devInteractions: { enabled: false },
      // A client learns about its own tokens only: another client's token introspects as inactive (the
      // library's default answers any authenticated client about any token).
      introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
    },
    ttl: {
      AccessToken: config.oauth2.accessTokenTtlS,
      AuthorizationCode: 600,
      IdToken: 3600,
      Interaction: 3600,
      Session: Math.floor(config.sessionLifetimeMs / 1000),
      Grant: config.oauth2.refreshTokenTtlS,
      RefreshToken: config.oauth2.refreshTokenTtlS,
    },
    // Gitea gives every client a refresh token, rotated at each use.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    allowOmittingSingleRegisteredRedirectUri: true,
    clientBasedCORS: () => true,
    interactions: { policy, url: (_ctx, interaction) => `${new URL(config.rootUrl).pathname.replace(/\/$/, '')}${interactionPath}/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const user = /^\d{1,15}$/.test(sub) ? await services.users.byId(Number(sub)) : undefined;
      if (!user || user.type !== 'User' || !user.isActive || user.prohibitLogin) return undefined;
      return {
        accountId: sub,
        claims: async (_use, scope) => {
          const groups = scope.split(' ').includes('groups') ? await services.oauth.groupsOf(user.id) : [];
          return toClaims(user, groups, config);
        },
      };
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.set('Content-Security-Policy', "default-src 'none'");
      ctx.body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>OAuth2 error - anvil</title></head><body><main class="error"><h1>${
        escapeHtml(String(out.error))}</h1><p class="error-description">${escapeHtml(String(out.error_description ?? ''))}</p></main></body></html>`;
    },
  };
  const provider = new Provider(config.rootUrl.replace(/\/$/, ''), configuration);
  provider.proxy = true;
  // Client secrets are stored hashed: the client's `client_secret` here is the hash.
  provider.Client.prototype.compareClientSecret = function compare(this: { clientSecret?: string }, actual: string) {
    return Promise.resolve(typeof actual === 'string' && secretMatches(actual, this.clientSecret ?? ''));
  };
  provider.on('server_error', (_ctx, err) => log.error({ err }, 'oauth2 provider error'));
  provider.on('grant.error', (_ctx, err) => log.info({ error: (err as { error?: string }).error, detail: (err as { error_detail?: string }).error_detail }, 'oauth2 grant refused'));
  return provider;
}

const providerPaths = new Set(Object.values(routes));

/** Whether a path is the provider's (its endpoints, the resume step of an authorization, discovery). */
export function isProviderPath(path: string): boolean {
  return path === '/.well-known/openid-configuration' || providerPaths.has(path) || path.startsWith(`${routes.authorization}/`);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > bodyLimit) throw Object.assign(new Error('request entity too large'), { status: 413, expose: true });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The token, introspection and revocation bodies as the library wants them: form-encoded (Gitea also
 * takes JSON), and a confidential client's secret as Basic rather than in the body.
 */
async function normaliseBody(ctx: Context): Promise<void> {
  const type = ctx.request.type;
  if (ctx.method !== 'POST' || (type !== 'application/json' && type !== 'application/x-www-form-urlencoded')) return;
  const text = await readBody(ctx.req);
  let form: URLSearchParams;
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text || '{}');
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw Object.assign(new Error('invalid JSON body'), { status: 400, expose: true });
    form = new URLSearchParams();
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string' || typeof v === 'number') form.set(k, String(v));
  } else {
    form = new URLSearchParams(text);
  }
  const id = form.get('client_id');
  const secret = form.get('client_secret');
  if (id && secret && !ctx.get('Authorization')) {
    ctx.req.headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    form.delete('client_secret');
    form.delete('client_id');
  }
  const body = form.toString();
  // The library reads `req.body` when the stream is already read.
  (ctx.req as IncomingMessage & { body?: string }).body = body;
  ctx.req.headers['content-type'] = 'application/x-www-form-urlencoded';
  ctx.req.headers['content-length'] = String(Buffer.byteLength(body));
}

/**
 * An authorization without a `scope` (tea, git-credential-oauth and Woodpecker send none) asks, as in
 * Gitea, for the user's full access: the library refuses a request that grants no scope, so it is given
 * the `all` scope, which is what such a token acts with anyway (tokenScopesOf).
 */
function defaultScope(ctx: Context): void {
  const url = new URL(ctx.req.url ?? '/', 'http://anvil.invalid');
  if (url.searchParams.get('request') || url.searchParams.get('request_uri')) return;
  const scope = url.searchParams.get('scope');
  if (scope !== null && scope.trim() !== '') return;
  url.searchParams.set('scope', 'all');
  ctx.req.url = `${url.pathname}${url.search}`;
}

/** Hands the provider's paths to oidc-provider (its own Koa application), everything else on. */
/** `provider`: the provider, built on first use (app.ts). */
export function providerMiddleware(provider: () => Promise<Provider>, config: Config): Middleware {
  let callback: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const mount = mountPrefix(config);
  return async (ctx, next) => {
    if (!isProviderPath(ctx.path)) return next();
    ctx.state.operationId = `oauth.${ctx.path.split('/').pop()}`;
    if (!config.oauth2.enabled) return next();
    const handle = (callback ??= (await provider()).callback() as (req: IncomingMessage, res: ServerResponse) => void);
    if (ctx.path === routes.token || ctx.path === routes.introspection || ctx.path === routes.revocation) await normaliseBody(ctx);
    if (ctx.path === routes.authorization && ctx.method === 'GET') defaultScope(ctx);
    mount(ctx.req);
    ctx.respond = false;
    await new Promise<void>((resolve) => {
      ctx.res.once('finish', resolve);
      ctx.res.once('close', resolve);
      handle(ctx.req, ctx.res);
    });
    ctx.status = ctx.res.statusCode;
  };
}

export const hashForLog = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);
