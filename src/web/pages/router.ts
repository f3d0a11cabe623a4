// The pages behind every html_url: read-only HTML, rendered on the server, with the API's credentials and
// visibility (what the caller may not read is an empty 404). Mounted after every other router, so it only
// sees paths nothing else answered; reserved first segments (api, avatars, ...) are never an owner.
//
// The structure browser tests rely on stays stable: every page is one `<main>` whose first `<h1>` names
// the object; a README is `article.markdown.readme`; a file tree is `table.files` (rows `tr.dir`,
// `tr.file`, ...); a file is `table.code` with rows `tr#L{n}`; issue and pull request comments are
// `div.comment#issuecomment-{id}` with their body in `div.markdown`; the issue's own body is
// `div.issue-body > div.markdown`; labels are `span.label`; reviews `div.review#pullrequestreview-{id}`;
// diffs `pre.diff` with one `div.add` / `div.del` / `div.ctx` / `div.hunk` / `div.file` per line.
import type { Context, Middleware } from 'koa';
import { authenticate, authorize, type Auth } from '../../api/auth.js';
import { errorAnswer } from '../../api/errors.js';
import { redirectLocation, redirectTo, type NamedSegments } from '../../api/redirects.js';
import type { Config } from '../../config.js';
import type { ScopeCategory } from '../../services/users/tokens.js';
import type { Services } from '../../services/index.js';
import { isReservedOwnerName } from '../../services/names.js';
import { NotFound } from '../../services/errors.js';
import { toTaskStatus } from '../../convert/migrateTask.js';
import type { LoadedRepo } from '../../services/repos/repos.js';
import { accountPage, orgProjectPage } from './account.js';
import { ANSWERED, type PageAnswer, type PageReq } from './common.js';
import { html } from './html.js';
import { issueList, issuePage, pullFilesPage, pullPage } from './issues.js';
import { layout, PAGE_CSP } from './layout.js';
import { sessionAuth } from '../account/session.js';
import { actionsPage, jobPage, releaseList, releasePage, runPage, wikiPage } from './more.js';
import { archive, commitPage, rawFile, repoHome, srcPage, type RefKind } from './repo.js';

interface Route {
  name: string;
  scope: ScopeCategory;
  run: (req: PageReq) => Promise<PageAnswer>;
}

const ownerName = /^[\da-zA-Z][-.\w]*$/;
const repoName = /^[-.\w]+$/;

/** The path's segments, decoded; undefined for a path no page can have (bad escapes, NUL, empty segments). */
function segmentsOf(path: string): { segs: string[]; raw: string[] } | undefined {
  const raw = path.split('/').slice(1);
  if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop();
  const segs: string[] = [];
  for (const r of raw) {
    let s: string;
    try {
      s = decodeURIComponent(r);
    } catch {
      return undefined;
    }
    if (s === '' || s.includes('\0') || s === '.' || s === '..') return undefined;
    segs.push(s);
  }
  return { segs, raw };
}

const refKinds: Record<string, RefKind> = { branch: 'branch', tag: 'tag', commit: 'commit' };

/** A repository's pages: `rest` are the segments after `/{owner}/{repo}`. */
function repoRoute(rest: string[], raw: string[]): { name: string; scope: ScopeCategory; run: (req: PageReq, loaded: LoadedRepo) => Promise<PageAnswer> } | undefined {
  const [a, b, c, d, ...more] = rest;
  const n = rest.length;
  if (n === 0) return { name: 'repo', scope: 'repository', run: repoHome };
  switch (a) {
    case 'src':
    case 'raw': {
      const kind = b !== undefined && refKinds[b] && n > 2 ? refKinds[b]! : 'any';
      const tail = rest.slice(kind === 'any' ? 1 : 2).join('/');
      if (!tail) return undefined;
      return a === 'src'
        ? { name: 'src', scope: 'repository', run: (req, loaded) => srcPage(req, loaded, kind, tail) }
        : { name: 'raw', scope: 'repository', run: (req, loaded) => rawFile(req, loaded, kind, tail) };
    }
    case 'archive':
      return n >= 2 ? { name: 'archive', scope: 'repository', run: (req, loaded) => archive(req, loaded, rest.slice(1).join('/')) } : undefined;
    case 'commit':
      return n === 2 ? { name: 'commit', scope: 'repository', run: (req, loaded) => commitPage(req, loaded, b!) } : undefined;
    case 'issues':
      if (n === 1) return { name: 'issues', scope: 'issue', run: (req, loaded) => issueList(req, loaded, 'issues') };
      return n === 2 ? { name: 'issue', scope: 'issue', run: (req, loaded) => issuePage(req, loaded, b!) } : undefined;
    case 'pulls':
      if (n === 1) return { name: 'pulls', scope: 'repository', run: (req, loaded) => issueList(req, loaded, 'pulls') };
      if (n === 2) return { name: 'pull', scope: 'repository', run: (req, loaded) => pullPage(req, loaded, b!) };
      return n === 3 && c === 'files' ? { name: 'pull.files', scope: 'repository', run: (req, loaded) => pullFilesPage(req, loaded, b!) } : undefined;
    case 'wiki':
      if (n === 1) return { name: 'wiki', scope: 'repository', run: (req, loaded) => wikiPage(req, loaded, undefined, undefined) };
      // koa hands over decoded segments; the wiki reads the name as sent too (`+` and `%2B` differ).
      return n === 2 ? { name: 'wiki.page', scope: 'repository', run: (req, loaded) => wikiPage(req, loaded, b!, raw[raw.length - 1]) } : undefined;
    case 'releases':
      if (n === 1) return { name: 'releases', scope: 'repository', run: releaseList };
      return b === 'tag' && n >= 3 ? { name: 'release', scope: 'repository', run: (req, loaded) => releasePage(req, loaded, rest.slice(2).join('/')) } : undefined;
    case 'actions':
      if (n === 1) return { name: 'actions', scope: 'repository', run: actionsPage };
      if (b !== 'runs') return undefined;
      if (n === 3) return { name: 'actions.run', scope: 'repository', run: (req, loaded) => runPage(req, loaded, c!) };
      return n === 5 && d === 'jobs' && more.length === 1 ? { name: 'actions.job', scope: 'repository', run: (req, loaded) => jobPage(req, loaded, c!, more[0]!) } : undefined;
    default:
      return undefined;
  }
}

function routeOf(segs: string[], raw: string[]): Route | undefined {
  const [owner, second, ...rest] = segs;
  if (!owner || !ownerName.test(owner) || isReservedOwnerName(owner)) return undefined;
  if (second === undefined) return { name: 'account', scope: 'user', run: (req) => accountPage(req, owner) };
  if (second === '-') {
    return rest.length === 2 && rest[0] === 'projects' ? { name: 'org.project', scope: 'organization', run: (req) => orgProjectPage(req, owner, rest[1]!) } : undefined;
  }
  if (!repoName.test(second) || /\.git$/i.test(second)) return undefined;
  const page = repoRoute(rest, raw.slice(2));
  if (!page) return undefined;
  return {
    name: page.name,
    scope: page.scope,
    // A repository being migrated shows only its page (repoHome tells the migration's progress).
    run: async (req) => page.run(req, await req.services.repos.load(owner, second, req.auth.actor, { beingMigrated: page.name === 'repo' })),
  };
}

/** A failure as a page: what may not be seen (and any malformed name, ref or number) is an empty 404. */
function pageError(ctx: Context, err: unknown, home: string): void {
  const { status, message, unexpected, headers } = errorAnswer(err);
  if (unexpected) throw err;
  if (headers) ctx.set(headers);
  if (status === 404 || status === 400 || status === 422 || status === 409) {
    ctx.remove('Content-Type');
    ctx.remove('Content-Disposition');
    ctx.body = null;
    ctx.status = 404;
    return;
  }
  if (status === 401) ctx.set('WWW-Authenticate', 'Basic realm="anvil"');
  ctx.status = status;
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = layout(String(status), [], html`<main class="error"><h1>${status}</h1><p>${message}</p></main>`, home).value;
}

/**
 * Gitea's `GET /user/task/{id}` (routers/web/user/task.go), which its migration page polls: the signed-in
 * user's own migration task as JSON; another's or a missing one is Gitea's 404 `{"error": ...}`. A
 * request without a user is sent to the sign-in page, as Gitea's reqSignIn does.
 */
async function taskStatus(ctx: Context, services: Services, base: string, idText: string): Promise<void> {
  ctx.state.operationId = 'web.user.task';
  const auth = (ctx.get('Authorization') || ctx.query.token || ctx.query.access_token ? undefined : await sessionAuth(ctx, services))
    ?? await authenticate(ctx, services);
  if (!auth.actor) {
    ctx.status = 303;
    ctx.redirect(`${base}user/login?redirect_to=${encodeURIComponent(`${base}${ctx.path.slice(1)}`)}`);
    return;
  }
  ctx.state.actorId = auth.actor.id;
  authorize(auth, { anonymous: false, basicOnly: false, scopes: ['user'], write: false });
  const id = /^\d{1,15}$/.test(idText) ? Number(idText) : 0;
  try {
    ctx.body = toTaskStatus(await services.migrations.taskOf(id, auth.actor));
  } catch (err) {
    if (!(err instanceof NotFound)) throw err;
    ctx.status = 404;
    ctx.body = { error: `task \`${id}\` does not exist` };
  }
  ctx.set('Cache-Control', 'no-store');
}

export function buildPages(services: Services, config: Config): Middleware {
  const base = new URL(config.rootUrl).pathname;
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const parsed = segmentsOf(ctx.path);
    if (parsed && parsed.segs.length === 3 && parsed.segs[0] === 'user' && parsed.segs[1] === 'task') return taskStatus(ctx, services, base, parsed.segs[2]!);
    const route = parsed && routeOf(parsed.segs, parsed.raw);
    if (!route) return next();
    ctx.state.operationId = `web.${route.name}`;
    let caller: Auth | undefined;
    try {
      // The API's credentials, else the browser's sign-in (src/web/account).
      const auth = (ctx.get('Authorization') || ctx.query.token || ctx.query.access_token ? undefined : await sessionAuth(ctx, services))
        ?? await authenticate(ctx, services);
      caller = auth;
      if (auth.actor) ctx.state.actorId = auth.actor.id;
      authorize(auth, { anonymous: true, basicOnly: false, scopes: [route.scope], write: false });
      const answer = await route.run({ services, config, auth, koa: ctx, base });
      if (answer === ANSWERED) return;
      ctx.set('Content-Security-Policy', PAGE_CSP);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Referrer-Policy', 'same-origin');
      ctx.set('Cache-Control', 'private, no-cache');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = layout(answer.title, answer.crumbs, answer.body, base, auth.signedIn?.name ?? null).value;
    } catch (err) {
      // An old name of a renamed account or a renamed or transferred repository: to the current one
      // (Gitea's RedirectToUser / RedirectToRepo), for a caller who may see it.
      const named: NamedSegments = parsed.segs.length === 1 || parsed.segs[1] === '-' ? { account: 1 } : { repo: [1, 2] };
      const location = caller && errorAnswer(err).status === 404 ? await redirectLocation(ctx, services, caller, named) : undefined;
      if (location) return redirectTo(ctx, location);
      pageError(ctx, err, base);
    }
  };
}
