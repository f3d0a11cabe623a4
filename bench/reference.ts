// The reference `make bench` holds anvil against: the hot reads written by hand on Koa and the bare
// driver (postgres.js, or PGlite on the same data folder), the fewest round trips, the same rows and
// the same JSON (scripts/bench.ts compares both servers' answers once per run). It knows only what the
// bench data needs (public repositories, a site admin's token), which is what makes it a ceiling for the
// database path, not a second implementation. Where anvil's speed comes from a choice any server could
// make, the reference makes it too, so a ratio measures anvil's overhead and not a handicap given to
// the reference: tokens are cached exactly as anvil caches them (src/services/users/tokens.ts), statements
// are prepared on both engines (on PGlite through the same statement cache as anvil's), feed totals
// are read from the tallies the bench fills, and an issue is created in one statement.
// Run as its own process: BENCH_TARGET=postgres://… or a PGlite folder, PORT, ROOT_URL.
import { createHash } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import { PgliteStatementCache } from '../src/db/pgliteStatements.js';
import { tokenCacheMs } from '../src/services/users/tokens.js';
import { inProcessChanges, PostgresChanges, type ChangeFeed } from '../src/db/changes.js';
import { matchesIn } from '../src/services/search/codeSearch.js';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Query = (text: string, params: unknown[]) => Promise<Row[]>;

const target = process.env.BENCH_TARGET!;
const root = process.env.ROOT_URL!;
// As anvil's defaults (src/config.ts): the no-reply domain and the SSH address follow ROOT_URL and SSH_PORT.
const noReply = `noreply.${new URL(root).hostname}`;
const sshPort = Number(process.env.SSH_PORT || 22);

async function connect(): Promise<{ q: Query; changes: ChangeFeed }> {
  if (target.startsWith('postgres')) {
    const { default: postgres } = await import('postgres');
    const sql = postgres(target, { max: 10, onnotice: () => {} });
    // The change feed anvil's token cache checks before each cached answer (#31): the same round trip here.
    const changes = new PostgresChanges(target);
    return { q: (text, params) => sql.unsafe(text, params as never[], { prepare: true }) as unknown as Promise<Row[]>, changes };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pgliteExtensions, pgliteStartParams } = await import('../src/db/client.js');
  // The same shared buffers as anvil's PGlite (PostgreSQL's default 128 MB would favour the reference).
  const pg = await PGlite.create(target, { startParams: pgliteStartParams(), extensions: pgliteExtensions });
  // Closed on SIGTERM, as anvil closes it: killed with the database open, the next server to open the
  // folder (anvil, whose start to first 200 is measured) would first have to recover it.
  process.once('SIGTERM', () => void pg.close().finally(() => process.exit(0)));
  // Named prepared statements, as anvil's PGlite client and postgres.js on PostgreSQL keep them.
  const cached = PgliteStatementCache.client(pg);
  // One process owns a PGlite folder: anvil counts its own writes in-process, and so does this server.
  return { q: async (text, params) => (await cached.query<Row>(text, params)).rows, changes: inProcessChanges };
}

const { q, changes } = await connect();
const n = (v: unknown) => Number(v);
const iso = (d: unknown) => (d ? new Date(d as string).toISOString().replace(/\.\d{3}Z$/, 'Z') : null);

function userJson(u: Row, authed: boolean) {
  return {
    id: n(u.id), login: u.name, username: u.name, login_name: authed ? u.login_name : '', source_id: authed ? n(u.login_source) : 0,
    full_name: u.full_name, email: authed && u.email ? u.email : `${u.lower_name}@${noReply}`, avatar_url: `${root}avatars/${u.id}`,
    html_url: `${root}${encodeURIComponent(u.name)}`, language: authed ? u.language : '', is_admin: authed ? u.is_admin : false,
    last_login: authed && u.last_login_at ? iso(u.last_login_at) : '1970-01-01T00:00:00Z', created: iso(u.created_at),
    restricted: u.is_restricted, active: authed ? u.is_active : false, prohibit_login: authed ? u.prohibit_login : false,
    location: u.location, website: u.website, description: u.description, visibility: u.visibility, type: u.type,
    followers_count: u.num_followers, following_count: u.num_following, starred_repos_count: u.num_stars,
  };
}

function repoJson(r: Row, owner: Row, admin: boolean, host: string) {
  const path = `${encodeURIComponent(owner.name)}/${encodeURIComponent(r.name)}`;
  const api = `${root}api/v1/repos/${path}`;
  return {
    id: n(r.id), owner: userJson(owner, admin), name: r.name, full_name: `${owner.name}/${r.name}`, description: r.description,
    empty: r.is_empty, private: r.is_private, fork: false, template: r.is_template, parent: null, mirror: r.is_mirror,
    size: Math.round(n(r.size_bytes) / 1024), language: r.language, languages_url: `${api}/languages`, html_url: `${root}${path}`, url: api,
    link: '', ssh_url: `ssh://git@${host}${sshPort === 22 ? '' : `:${sshPort}`}/${path}.git`, clone_url: `${root}${path}.git`, original_url: '', website: r.website,
    stars_count: r.num_stars, forks_count: r.num_forks, watchers_count: r.num_watches, open_issues_count: r.num_issues - r.num_closed_issues,
    open_pr_counter: r.num_pulls - r.num_closed_pulls, release_counter: r.num_releases, branch_count: r.num_branches,
    default_branch: r.default_branch, default_target_branch: r.default_branch, archived: r.is_archived, created_at: iso(r.created_at),
    updated_at: iso(r.updated_at), archived_at: iso(r.archived_at), permissions: { admin, push: admin, pull: true },
    has_code: r.has_code, has_issues: r.has_issues,
    internal_tracker: { enable_time_tracker: r.enable_time_tracker, allow_only_contributors_to_track_time: r.allow_only_contributors_to_track_time, enable_issue_dependencies: r.enable_issue_dependencies },
    external_tracker: r.external_tracker, has_wiki: r.has_wiki, external_wiki: r.external_wiki_url ? { external_wiki_url: r.external_wiki_url } : null,
    has_pull_requests: r.has_pull_requests, has_projects: r.has_projects, projects_mode: r.projects_mode, has_releases: r.has_releases,
    has_packages: r.has_packages, has_actions: r.has_actions, ignore_whitespace_conflicts: r.ignore_whitespace_conflicts,
    allow_merge_commits: r.allow_merge_commits, allow_rebase: r.allow_rebase, allow_rebase_explicit: r.allow_rebase_explicit,
    allow_squash_merge: r.allow_squash_merge, allow_fast_forward_only_merge: r.allow_fast_forward_only_merge,
    allow_rebase_update: r.allow_rebase_update, allow_merge_update: true, allow_manual_merge: r.allow_manual_merge,
    autodetect_manual_merge: r.autodetect_manual_merge, default_delete_branch_after_merge: r.default_delete_branch_after_merge,
    default_merge_style: r.default_merge_style, default_update_style: 'merge', default_allow_maintainer_edit: r.default_allow_maintainer_edit,
    avatar_url: '', internal: false, mirror_interval: '', mirror_updated: null, mirror_last_sync_at: null, object_format_name: r.object_format,
    repo_transfer: null, topics: r.topics, licenses: r.licenses,
  };
}

function issueJson(i: Row, owner: Row, repo: Row, viewer: Row) {
  const path = `${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`;
  const authed = viewer.is_admin;
  const assignees = (i.assignees ?? []).map((u: Row) => userJson(u, authed));
  return {
    id: n(i.id), url: `${root}api/v1/repos/${path}/issues/${i.index}`, html_url: `${root}${path}/issues/${i.index}`, number: n(i.index),
    user: userJson(i.poster, authed), original_author: i.original_author, original_author_id: n(i.original_author_id), title: i.title,
    body: i.body, ref: i.ref, assets: [], labels: (i.labels ?? []).map((l: Row) => ({ id: l.id, name: l.name, exclusive: l.exclusive, is_archived: l.is_archived, color: l.color, description: l.description, url: `${root}api/v1/repos/${path}/labels/${l.id}` })),
    milestone: null, assignee: assignees[0] ?? null, assignees, state: i.is_closed ? 'closed' : 'open', is_locked: i.is_locked,
    comments: i.num_comments, created_at: iso(i.created_at), updated_at: iso(i.updated_at), closed_at: iso(i.closed_at),
    due_date: iso(i.due_date), time_estimate: n(i.time_estimate), pull_request: null,
    repository: { id: n(repo.id), name: repo.name, owner: owner.name, full_name: `${owner.name}/${repo.name}` },
    pin_order: i.pin_order, content_version: i.content_version, projects: [],
  };
}

const host = new URL(root).hostname;

// A token's user, reused as anvil reuses it: only while the change feed says that neither users nor
// access_tokens were written since it was read (on PostgreSQL a round trip on the listening connection
// before each cached answer, as anvil's src/services/users/tokens.ts), and for tokenCacheMs at most.
const tokenSources = ['users', 'access_tokens'] as const;
const tokenCache = new Map<string, { user: Row | undefined; at: number; gen: number }>();
const tokenCacheMax = 10_000;

async function caller(ctx: Koa.Context): Promise<Row> {
  const token = ctx.get('Authorization').replace(/^token\s+/i, '');
  const hash = createHash('sha256').update(token).digest('hex');
  const now = Date.now();
  const gen = await changes.version(tokenSources);
  const hit = tokenCache.get(hash);
  let u = hit && hit.gen === gen && now - hit.at < tokenCacheMs ? hit.user : undefined;
  if (!u) {
    [u] = await q('select row_to_json(u) as u from access_tokens t join users u on u.id = t.user_id where t.token_hash = $1', [hash]).then((rows) => rows.map((r) => r.u));
    tokenCache.delete(hash);
    if (tokenCache.size >= tokenCacheMax) tokenCache.delete(tokenCache.keys().next().value!);
    if (u) tokenCache.set(hash, { user: u, at: now, gen });
  }
  if (!u) ctx.throw(401);
  return u!;
}

async function repoOf(owner: string, name: string): Promise<{ repo: Row; owner: Row }> {
  const [r] = await q(
    `select row_to_json(r) as repo, row_to_json(o) as owner from repositories r join users o on o.id = r.owner_id
     where o.lower_name = $1 and r.lower_name = $2 and not r.is_private`, [owner.toLowerCase(), name.toLowerCase()]);
  if (!r) throw Object.assign(new Error('not found'), { status: 404 });
  return { repo: r.repo, owner: r.owner };
}

const issueDetails = `(select row_to_json(p) from users p where p.id = i.poster_id) as poster,
  (select json_agg(row_to_json(l) order by l.name) from issue_labels il join labels l on l.id = il.label_id where il.issue_id = i.id) as labels,
  (select json_agg(row_to_json(u)) from issue_assignees ia join users u on u.id = ia.user_id where ia.issue_id = i.id) as assignees`;

function page(ctx: Koa.Context) {
  const limit = Math.min(Number(ctx.query.limit ?? 30) || 30, 50);
  const p = Math.max(Number(ctx.query.page ?? 1) || 1, 1);
  return { limit, offset: (p - 1) * limit };
}

const router = new Router({ prefix: '/api/v1' });
router.get('/user', async (ctx) => {
  ctx.body = userJson(await caller(ctx), true);
});
router.get('/repos/:owner/:repo', async (ctx) => {
  const me = await caller(ctx);
  const { repo, owner } = await repoOf(ctx.params.owner!, ctx.params.repo!);
  ctx.body = repoJson(repo, owner, me.is_admin, host);
});
router.get('/repos/:owner/:repo/issues/:index', async (ctx) => {
  const me = await caller(ctx);
  const { repo, owner } = await repoOf(ctx.params.owner!, ctx.params.repo!);
  const [i] = await q(`select i.*, ${issueDetails} from issues i where i.repo_id = $1 and i.index = $2`, [repo.id, Number(ctx.params.index)]);
  if (!i) ctx.throw(404);
  ctx.body = issueJson(i!, owner, repo, me);
});
// Keyword search (#41), two ways: `reference=ilike` as a server without a text index would write it (Gitea's
// database indexer: one ILIKE per field, the comments in an EXISTS), otherwise by the trigram indexes, one
// select per field in a union (what anvil does, written by hand). The keyword is a word (no number arm).
const matchedBy = (how: string) => how === 'ilike'
  ? `(i.title ilike $2 or i.body ilike $2 or exists (select 1 from comments c where c.issue_id = i.id and c.type = 'comment' and c.body ilike $2))`
  : `i.id in (select id from issues where title ilike $2 and repo_id = $1 union all select id from issues where body ilike $2 and repo_id = $1
       union all select issue_id from comments where type = 'comment' and body ilike $2 and repo_id = $1)`;
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
async function searchIssues(ctx: Koa.Context, me: Row, owner: Row, repo: Row) {
  const { limit, offset } = page(ctx);
  const match = matchedBy(String(ctx.query.reference ?? ''));
  const like = likePattern(String(ctx.query.q).trim());
  const [rows, [total]] = await Promise.all([
    q(`with page as (select i.id from issues i where i.repo_id = $1 and not i.is_pull and ${match}
         order by i.created_at desc, i.id desc limit $3 offset $4)
       select i.*, ${issueDetails} from page join issues i on i.id = page.id
       order by i.created_at desc, i.id desc`, [repo.id, like, limit, offset]),
    q(`select count(*) as n from issues i where i.repo_id = $1 and not i.is_pull and ${match}`, [repo.id, like]),
  ]);
  ctx.set('X-Total-Count', String(total!.n));
  ctx.body = rows.map((i) => issueJson(i, owner, repo, me));
}
router.get('/repos/:owner/:repo/issues', async (ctx) => {
  const me = await caller(ctx);
  const { repo, owner } = await repoOf(ctx.params.owner!, ctx.params.repo!);
  if (ctx.query.q) return searchIssues(ctx, me, owner, repo);
  const { limit, offset } = page(ctx);
  const [rows, [total]] = await Promise.all([
    // The page's ids first (an index-only walk), then the details of those rows alone.
    q(`with page as (select id from issues where repo_id = $1 and not is_pull
         order by created_at desc, id desc limit $2 offset $3)
       select i.*, ${issueDetails} from page join issues i on i.id = page.id
       order by i.created_at desc, i.id desc`, [repo.id, limit, offset]),
    q('select count(*) as n from issues where repo_id = $1 and not is_pull', [repo.id]),
  ]);
  ctx.set('X-Total-Count', String(total!.n));
  ctx.body = rows.map((i) => issueJson(i, owner, repo, me));
});
// The caller's own repositories and those of the organizations whose all-repository teams they are in.
const reachable = `(r.owner_id = $1 or r.owner_id in (select t.org_id from teams t join team_members tm on tm.team_id = t.id
  where tm.user_id = $1 and t.includes_all_repositories))`;
router.get('/user/repos', async (ctx) => {
  const me = await caller(ctx);
  const { limit, offset } = page(ctx);
  const [rows, [total]] = await Promise.all([
    q(`select row_to_json(r) as repo, row_to_json(o) as owner from repositories r join users o on o.id = r.owner_id
       where ${reachable} order by r.lower_name limit $2 offset $3`, [me.id, limit, offset]),
    q(`select count(*) as n from repositories r where ${reachable}`, [me.id]),
  ]);
  ctx.set('X-Total-Count', String(total!.n));
  ctx.body = rows.map((r) => repoJson(r.repo, r.owner, me.is_admin, host));
});
router.get('/orgs/:org/activities/feeds', async (ctx) => {
  const me = await caller(ctx);
  const { limit, offset } = page(ctx);
  const [org] = await q('select * from users where lower_name = $1', [ctx.params.org!.toLowerCase()]);
  if (!org) ctx.throw(404);
  const [rows, [total]] = await Promise.all([
    q(`select a.*, row_to_json(u) as actor, row_to_json(r) as repo from activities a
       join users u on u.id = a.act_user_id join repositories r on r.id = a.repo_id
       where a.owner_id = $1 order by a.created_at desc, a.id desc limit $2 offset $3`, [org!.id, limit, offset]),
    // The feed's total is the sum of its repositories' tallies (kept with each feed row), as anvil reads it.
    q(`select coalesce(sum(t.n), 0) as n from activity_tallies t join repositories r on r.id = t.repo_id
       where t.owner_id = $1 and not r.is_private`, [org!.id]),
  ]);
  ctx.set('X-Total-Count', String(total!.n));
  ctx.body = rows.map((a) => ({
    id: n(a.id), act_user: userJson(a.actor, me.is_admin), act_user_id: n(a.act_user_id), op_type: a.op_type, comment: null, comment_id: 0,
    content: a.content, created: iso(a.created_at), is_private: a.is_private, ref_name: a.ref_name,
    repo: repoJson(a.repo, org!, me.is_admin, host), repo_id: n(a.repo_id), user_id: n(org!.id),
  }));
});
// Pull requests (#41): the page's ids first, then the rows with their pull request, the stored
// statistics (no git), and the total from the repository's counter (an unfiltered list: state=all).
function pullJson(i: Row, owner: Row, repo: Row, viewer: Row) {
  const issue = issueJson(i, owner, repo, viewer);
  const p = i.pull;
  const repository = repoJson(repo, owner, viewer.is_admin, host);
  const html = `${root}${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}/pulls/${i.index}`;
  const branch = (name: string, sha: string) => ({ label: name, ref: name, sha, repo_id: n(repo.id), repo: repository });
  const draft = /^(wip:|\[wip\])/i.test(i.title);
  return {
    id: n(p.id), url: html, number: issue.number, user: issue.user, title: issue.title, body: issue.body, labels: issue.labels,
    milestone: null, assignee: issue.assignee, assignees: issue.assignees, requested_reviewers: [], requested_reviewers_teams: [],
    state: issue.state, draft, is_locked: issue.is_locked, comments: issue.comments, additions: p.additions, deletions: p.deletions,
    changed_files: p.changed_files, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`, mergeable: p.mergeable && !draft,
    merged: p.merged, merged_at: iso(p.merged_at), merge_commit_sha: p.merge_commit_sha ?? null, merged_by: null,
    allow_maintainer_edit: p.allow_maintainer_edit, base: branch(p.base_branch, p.base_sha), head: branch(p.head_branch, p.head_sha),
    merge_base: p.merge_base, due_date: issue.due_date, created_at: issue.created_at, updated_at: issue.updated_at,
    closed_at: issue.closed_at, pin_order: issue.pin_order, content_version: issue.content_version,
  };
}
router.get('/repos/:owner/:repo/pulls', async (ctx) => {
  const me = await caller(ctx);
  const { repo, owner } = await repoOf(ctx.params.owner!, ctx.params.repo!);
  if (ctx.query.state !== 'all') ctx.throw(400, 'the reference lists state=all only');
  const { limit, offset } = page(ctx);
  const rows = await q(`with page as (select id from issues where repo_id = $1 and is_pull
       order by created_at desc, id desc limit $2 offset $3)
     select i.*, row_to_json(p) as pull, ${issueDetails} from page join issues i on i.id = page.id join pull_requests p on p.issue_id = i.id
     order by i.created_at desc, i.id desc`, [repo.id, limit, offset]);
  ctx.set('X-Total-Count', String(repo.num_pulls));
  ctx.body = rows.map((i) => pullJson(i, owner, repo, me));
});
// Code search (#41), one term: the trigram index of the files' content, the page, then its lines (cut as
// anvil cuts them: the same matchesIn, so the fragments compare; the database path is written here).
router.get('/repos/:owner/:repo/search/code', async (ctx) => {
  await caller(ctx);
  const { repo, owner } = await repoOf(ctx.params.owner!, ctx.params.repo!);
  const { limit, offset } = page(ctx);
  const term = String(ctx.query.q ?? '').trim();
  const like = likePattern(term);
  const [files, [total], [indexed]] = await Promise.all([
    q('select path, blob, language, content from code_index_files where repo_id = $1 and content ilike $2 order by path limit $3 offset $4', [repo.id, like, limit, offset]),
    q('select count(*) as n from code_index_files where repo_id = $1 and content ilike $2', [repo.id, like]),
    q('select indexed_commit from code_index_repos where repo_id = $1', [repo.id]),
  ]);
  const path = `${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`;
  ctx.set('X-Total-Count', String(total!.n));
  ctx.body = {
    total_count: n(total!.n), indexed_commit: indexed?.indexed_commit ?? '',
    items: files.map((f) => ({
      repository: { id: n(repo.id), name: repo.name, full_name: `${owner.name}/${repo.name}`, owner: owner.name, html_url: `${root}${path}` },
      path: f.path, sha: f.blob, language: f.language,
      html_url: `${root}${path}/src/branch/${repo.default_branch.split('/').map(encodeURIComponent).join('/')}/${f.path.split('/').map(encodeURIComponent).join('/')}`,
      matches: matchesIn(f.content, [term]),
    })),
  };
});
router.post('/repos/:owner/:repo/issues', async (ctx) => {
  const me = await caller(ctx);
  const { repo, owner } = await repoOf(ctx.params.owner!, ctx.params.repo!);
  const chunks: Buffer[] = [];
  for await (const c of ctx.req) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title: string; body?: string };
  // Everything anvil writes for a new issue (its number, the issue, the repository's count, the event, the
  // feed row and its tally) in one statement: data-modifying CTEs run in its one implicit transaction.
  const [issue] = await q(`with next as (
      insert into issue_counters (repo_id, last_index) values ($1, 1)
      on conflict (repo_id) do update set last_index = issue_counters.last_index + 1 returning last_index
    ), i as (
      insert into issues (repo_id, index, poster_id, title, body) select $1, last_index, $2, $3, $4 from next returning *
    ), r as (
      update repositories set num_issues = num_issues + 1 where id = $1
    ), e as (
      insert into events (type, action, actor_id, repo_id, owner_id, data)
      select 'issues', 'opened', $2, $1, $5, jsonb_build_object('action', 'opened', 'issueId', i.id) from i returning id, created_at
    ), a as (
      insert into activities (event_id, op_type, act_user_id, repo_id, owner_id, issue_id, content, created_at)
      select e.id, 'create_issue', $2, $1, $5, i.id, i.index || '|' || $3, e.created_at from e, i
    ), t as (
      insert into activity_tallies (owner_id, act_user_id, repo_id, n) values ($5, $2, $1, 1)
      on conflict (owner_id, act_user_id, repo_id) do update set n = activity_tallies.n + 1
    )
    select * from i`, [repo.id, me.id, body.title, body.body ?? '', owner.id]);
  ctx.status = 201;
  ctx.body = issueJson({ ...issue!, poster: me, labels: [], assignees: [] }, owner, repo, me);
});

const app = new Koa();
app.use(async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    ctx.status = (err as { status?: number }).status ?? 500;
    ctx.body = { message: (err as Error).message };
  }
});
app.use(router.routes());
app.listen(Number(process.env.PORT), '127.0.0.1');
