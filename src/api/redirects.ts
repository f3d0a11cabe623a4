// Gitea's RedirectToRepo / RedirectToUser: a request that names a renamed or transferred repository, or a
// renamed account, by its old name is answered 307 Temporary Redirect to the same path under the current
// name, the query kept (so a client repeats the method and body there). Only a caller who may see the
// target is redirected (services/repos/redirects.ts); to anyone else the old name answers what a missing
// one does.
import type { Context } from 'koa';
import type { Services } from '../services/index.js';
import type { RedirectCaller } from '../services/repos/redirects.js';

/** Where a path's segments name a repository (owner, name) or an account. */
export type NamedSegments = { repo: [owner: number, name: number] } | { account: number };

/**
 * The Location for a request whose path names an old repository or account name at these segment indexes
 * of `ctx.path` (split on `/`); undefined when there is nothing to redirect to for this caller. `suffix`
 * is a part of the repository segment kept as it is (`.git`, `.wiki.git`).
 */
export async function redirectLocation(
  ctx: Context,
  services: Services,
  auth: RedirectCaller,
  at: NamedSegments,
  opts: { nameSuffix?: RegExp } = {},
): Promise<string | undefined> {
  const segments = ctx.path.split('/');
  const decode = (s: string | undefined) => {
    try {
      return s === undefined ? undefined : decodeURIComponent(s);
    } catch {
      return undefined;
    }
  };
  if ('repo' in at) {
    const [o, n] = at.repo;
    const owner = decode(segments[o]);
    const rawName = decode(segments[n]);
    if (owner === undefined || rawName === undefined) return undefined;
    const suffix = opts.nameSuffix ? (rawName.match(opts.nameSuffix)?.[0] ?? '') : '';
    const name = rawName.slice(0, rawName.length - suffix.length);
    const target = await services.redirects.repo(owner, name, { actor: auth.actor, task: auth.task });
    if (!target) return undefined;
    segments[o] = encodeURIComponent(target.owner);
    segments[n] = encodeURIComponent(target.name) + suffix;
  } else {
    const name = decode(segments[at.account]);
    if (name === undefined) return undefined;
    const target = await services.redirects.user(name, auth.actor);
    if (!target) return undefined;
    segments[at.account] = encodeURIComponent(target.name);
  }
  const base = new URL(services.deps.config.rootUrl).pathname.replace(/\/$/, '');
  return base + segments.join('/') + (ctx.querystring ? `?${ctx.querystring}` : '');
}

/** Answers 307 to `location` with an empty body. */
export function redirectTo(ctx: Context, location: string): void {
  ctx.status = 307;
  ctx.set('Location', location);
  ctx.body = '';
  ctx.remove('Content-Type');
}
