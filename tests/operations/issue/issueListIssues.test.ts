import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { labels, pullRequests } from '../../../src/db/schema/index.js';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../../src/db/raw.js';
import { withTx } from '../../../src/db/tx.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, editIssue, editRepo, newIssue, newLabel, newMilestone, people, sharedRepo, type Issue, type People, type Repo,
} from '../../helpers/issues.js';
import { linksOf } from '../../helpers/orgs.js';
import { orgRepo, orgWorld, raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type Query = { state?: 'open' | 'closed' | 'all'; type?: 'issues' | 'pulls'; labels?: string; milestones?: string; q?: string; created_by?: string; assigned_by?: string; mentioned_by?: string; page?: number; limit?: number; since?: string; before?: string };

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;
/** pub's items, oldest first: i[0..4] issues, pull the last one. */
let i: Issue[];
let pull: number;

const list = (repo: Repo, query: Query = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/issues', { params: { path: repo.path, query } });

async function numbers(repo: Repo, query: Query = {}, authorization = p.owner.auth): Promise<number[]> {
  const r = await list(repo, query, authorization);
  assert.is(r.response.status, 200, `${JSON.stringify(query)}: ${r.response.status}`);
  assertSpec('issueListIssues', r);
  return r.data!.map((x) => x.number);
}

async function pullIndex(repo: Repo): Promise<number> {
  const owner = (await app.services.users.byId(p.owner.id))!;
  const loaded = await app.services.repos.load(repo.path.owner, repo.path.repo, owner);
  return withTx(app.services.deps.db, async (tx) => {
    const row = await app.services.issues.create(loaded, owner, { title: 'a pull' }, { tx });
    await tx.insert(pullRequests).values({ issueId: row.id, repoId: row.repoId, headRepoId: row.repoId, headBranch: 'feature', baseBranch: 'main' });
    return row.index;
  });
}

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  const bug = await newLabel(app, pub, p.writer, { name: 'Bug' });
  await newLabel(app, pub, p.writer, { name: 'docs' });
  const v1 = await newMilestone(app, pub, p.writer, { title: 'v1' });
  await newMilestone(app, pub, p.writer, { title: 'v2' });
  i = [];
  i.push(await newIssue(app, pub, p.writer, { title: 'first crash', labels: [bug.id] }));
  i.push(await newIssue(app, pub, p.writer, { title: 'second', body: 'a CRASH in the body', milestone: v1.id, assignees: [p.writer.username] }));
  i.push(await newIssue(app, pub, p.owner, { title: 'third', labels: [bug.id], milestone: v1.id }));
  i.push(await newIssue(app, pub, p.reader, { title: 'fourth 100%_done' }));
  i.push(await newIssue(app, pub, p.owner, { title: 'fifth' }));
  await editIssue(app, pub, i[2]!.number, p.owner, { state: 'closed' });
  await editIssue(app, pub, i[4]!.number, p.owner, { state: 'closed' });
  pull = await pullIndex(pub);
});
test.after(async () => {
  await app.close();
});

const n = (...k: number[]) => k.map((x) => i[x]!.number);

test('200: open items by default, newest first, issues and pull requests together (pull_request set on pulls)', async () => {
  const r = await list(pub, {}, p.reader.auth);
  assert.is(r.response.status, 200);
  assertSpec('issueListIssues', r);
  assert.equal(r.data!.map((x) => x.number), [pull, ...n(3, 1, 0)]);
  assert.ok(r.data![0]!.pull_request, 'pull request meta');
  assert.ok(r.data!.slice(1).every((x) => x.pull_request === null));
  assert.is(r.response.headers.get('X-Total-Count'), '4');
  const second = r.data!.find((x) => x.number === i[1]!.number)!;
  assert.is(second.milestone!.title, 'v1');
  assert.equal(second.assignees.map((u) => u.login), [p.writer.username]);
  assert.is(second.repository.full_name, pub.full_name);
});

test('200: state and type filters', async () => {
  assert.equal(await numbers(pub, { state: 'closed' }), n(4, 2));
  assert.equal(await numbers(pub, { state: 'all' }), [pull, ...n(4, 3, 2, 1, 0)]);
  assert.equal(await numbers(pub, { state: 'all', type: 'issues' }), n(4, 3, 2, 1, 0));
  assert.equal(await numbers(pub, { state: 'all', type: 'pulls' }), [pull]);
  assert.equal(await numbers(pub, { type: 'issues' }), n(3, 1, 0));
});

test('200: labels (case-insensitive, unknown dropped), milestones (title or id), q, created_by, assigned_by', async () => {
  const v1 = i[1]!.milestone!;
  assert.equal(await numbers(pub, { state: 'all', labels: 'bug' }), n(2, 0));
  assert.equal(await numbers(pub, { state: 'all', labels: 'nope,BUG' }), n(2, 0));
  assert.equal(await numbers(pub, { state: 'all', labels: 'docs' }), []);
  assert.equal(await numbers(pub, { state: 'all', milestones: 'v1' }), n(2, 1));
  assert.equal(await numbers(pub, { state: 'all', milestones: String(v1.id) }), n(2, 1));
  assert.equal(await numbers(pub, { state: 'all', milestones: 'v2' }), []);
  assert.equal(await numbers(pub, { state: 'open', milestones: 'v1' }), n(1));
  assert.equal(await numbers(pub, { state: 'all', q: 'crash' }), n(1, 0), 'title or body, case-insensitive');
  assert.equal(await numbers(pub, { state: 'all', q: '100%_' }), n(3), 'LIKE wildcards are literal');
  assert.equal(await numbers(pub, { state: 'all', q: '%' }), n(3));
  assert.equal(await numbers(pub, { state: 'all', type: 'issues', created_by: p.reader.username }), n(3));
  assert.equal(await numbers(pub, { state: 'all', type: 'issues', created_by: p.owner.username }), n(4, 2));
  assert.equal(await numbers(pub, { state: 'all', assigned_by: p.writer.username }), n(1));
  assert.equal(await numbers(pub, { state: 'all', since: new Date(Date.now() + 60_000).toISOString() }), []);
  assert.equal((await numbers(pub, { state: 'all', before: new Date(Date.now() + 60_000).toISOString() })).length, 6);
});

test('200: labels must all be on an issue (Gitea), org labels count, only unknown names match nothing; q also searches comments', async () => {
  const world = await orgWorld(app);
  const created = await orgRepo(app, world.name, world.owner);
  const path = { owner: world.name, repo: created.name };
  const repo = { ...created, path } as Repo;
  const a = await newLabel(app, repo, world.owner, { name: 'Alpha' });
  const b = await newLabel(app, repo, world.owner, { name: 'beta' });
  // An organization's label (no operation creates one yet): usable on its repositories' issues.
  const [shared] = await app.services.deps.db.insert(labels).values({ orgId: world.org.id, name: 'org-wide', color: '112233' }).returning();
  const x = await newIssue(app, repo, world.owner, { title: 'x', labels: [a.id] });
  const y = await newIssue(app, repo, world.owner, { title: 'y', labels: [a.id, b.id, shared!.id] });
  const z = await newIssue(app, repo, world.owner, { title: 'z', labels: [b.id] });
  const w = await newIssue(app, repo, world.owner, { title: 'w' });
  assert.equal(y.labels.map((l) => l.name).sort(), ['Alpha', 'beta', 'org-wide'], 'the org label is on the issue');
  assert.equal(await numbers(repo, { labels: 'alpha' }), [y.number, x.number]);
  assert.equal(await numbers(repo, { labels: 'alpha,BETA' }), [y.number]);
  assert.equal(await numbers(repo, { labels: 'beta,org-wide' }), [y.number]);
  assert.equal(await numbers(repo, { labels: 'alpha,alpha,nope' }), [y.number, x.number], 'duplicates and unknown names dropped');
  assert.equal(await numbers(repo, { labels: 'nope' }), [], 'only unknown names: nothing');
  const c = await app.client(world.reader.auth).POST('/repos/{owner}/{repo}/issues/{index}/comments', {
    params: { path: { ...path, index: w.number } }, body: { body: 'the NEEDLE is in a comment' },
  });
  assert.is(c.response.status, 201);
  assert.equal(await numbers(repo, { q: 'needle' }), [w.number]);
  assert.equal(await numbers(repo, { q: 'needle', labels: 'beta' }), []);
  assert.ok(z.number > 0);
});

test('200: mentioned_by: issues whose body or a comment @mentions the user (not in code, not an e-mail address)', async () => {
  const repo = await sharedRepo(app, p);
  const inBody = await newIssue(app, repo, p.owner, { title: 'body', body: `ping @${p.reader.username.toUpperCase()}, please` });
  const inComment = await newIssue(app, repo, p.owner, { title: 'comment' });
  const c = await app.client(p.writer.auth).POST('/repos/{owner}/{repo}/issues/{index}/comments', {
    params: { path: { ...repo.path, index: inComment.number } }, body: { body: `(@${p.reader.username}) look` },
  });
  assert.is(c.response.status, 201);
  await newIssue(app, repo, p.owner, { title: 'code', body: `\`@${p.reader.username}\` and ${p.reader.username}@example.com` });
  const edited = await newIssue(app, repo, p.owner, { title: 'edited' });
  await editIssue(app, repo, edited.number, p.owner, { body: `now @${p.reader.username}` });
  assert.equal(await numbers(repo, { mentioned_by: p.reader.username }), [edited.number, inComment.number, inBody.number]);
  assert.equal(await numbers(repo, { mentioned_by: p.writer.username }), []);
  assertEmpty404(await list(repo, { mentioned_by: 'no-such-user' }, p.owner.auth), 'unknown user');
});

test('200: paginated with X-Total-Count and Link', async () => {
  const r = await list(pub, { state: 'all', limit: 2, page: 2 }, p.owner.auth);
  assert.is(r.response.status, 200);
  assertSpec('issueListIssues', r);
  assert.equal(r.data!.map((x) => x.number), n(3, 2));
  assert.is(r.response.headers.get('X-Total-Count'), '6');
  const links = linksOf(r.response.headers.get('Link'));
  assert.equal(links, { next: { page: 3, limit: 2 }, last: { page: 3, limit: 2 }, first: { page: 1, limit: 2 }, prev: { page: 1, limit: 2 } });
});

test('X-Total-Count of every state and kind is the number of items listed, through creation, closing, reopening and deletion', async () => {
  const repo = await sharedRepo(app, p);
  const check = async (when: string) => {
    for (const state of ['open', 'closed', 'all'] as const) {
      for (const type of [undefined, 'issues', 'pulls'] as const) {
        const r = await list(repo, { state, type, limit: 50 }, p.owner.auth);
        assert.is(r.response.status, 200);
        assert.is(r.response.headers.get('X-Total-Count'), String(r.data!.length), `${when}: state=${state} type=${type}`);
      }
    }
  };
  const made = [];
  for (let k = 0; k < 4; k++) made.push(await newIssue(app, repo, p.owner, { title: `counted ${k}` }));
  await pullIndex(repo);
  await check('created');
  await editIssue(app, repo, made[0]!.number, p.owner, { state: 'closed' });
  await editIssue(app, repo, made[1]!.number, p.owner, { state: 'closed' });
  await check('closed');
  await editIssue(app, repo, made[1]!.number, p.owner, { state: 'open' });
  await check('reopened');
  const gone = await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...repo.path, index: made[0]!.number } } });
  assert.is(gone.response.status, 204);
  await check('deleted');
});

test('200: deep pages (counted first, past the middle walked from the oldest end) are the pages of the one order', async () => {
  // 2,345 issues written at once, three to a second (ties ordered by id), one in five closed.
  const repo = await sharedRepo(app, p);
  const rows = 2_345;
  await app.services.deps.db.execute(sql`insert into issues (repo_id, index, poster_id, title, is_closed, created_at, updated_at)
    select ${repo.id}, g, ${p.owner.id}, 'bulk ' || g, g % 5 = 0, timestamptz '2026-01-01' + (g / 3) * interval '1 second', now()
    from generate_series(1, ${rows}) g`);
  await app.services.deps.db.execute(sql`insert into issue_counters (repo_id, last_index) values (${repo.id}, ${rows})`);
  // The repository's counters, as the service keeps them (an unfiltered list's total is read from them).
  await app.services.deps.db.execute(sql`update repositories set num_issues = ${rows}, num_closed_issues = ${Math.floor(rows / 5)} where id = ${repo.id}`);
  const order = (all: Array<{ index: number; created: number; id: number }>) => all.sort((a, b) => b.created - a.created || b.id - a.id).map((r) => r.index);
  for (const state of ['open', 'all'] as const) {
    const stored = rowsOf<{ index: number | string; created: string; id: number | string }>(await app.services.deps.db.execute(
      sql`select index, extract(epoch from created_at)::text as created, id from issues where repo_id = ${repo.id} and (${state === 'all'} or not is_closed)`));
    const expected = order(stored.map((r) => ({ index: Number(r.index), created: Number(r.created), id: Number(r.id) })));
    assert.is(expected.length, state === 'all' ? rows : rows - Math.floor(rows / 5));
    const limit = 50;
    const last = Math.ceil(expected.length / limit);
    // Pages before the deep offset (1,000), deep ones in the first half (state=all: 21 to 24) and past it, the last (partial) one, one beyond.
    for (const page of [1, 10, 20, 21, 24, 25, 30, last - 1, last, last + 1]) {
      const r = await list(repo, { state, limit, page }, p.owner.auth);
      assert.is(r.response.status, 200);
      assert.is(r.response.headers.get('X-Total-Count'), String(expected.length));
      assert.equal(r.data!.map((x) => x.number), expected.slice((page - 1) * limit, page * limit), `${state}: page ${page} of ${last}`);
    }
  }
});

test('200: every role that can read; 404 on a private repository for anonymous and outsider', async () => {
  const own = await newIssue(app, priv, p.owner);
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth], ['reader', p.reader.auth], ['writer', p.writer.auth], ['site admin', p.admin.auth]] as const) {
    assert.equal(await numbers(pub, { type: 'issues' }, auth), n(3, 1, 0), label);
  }
  for (const [label, auth] of [['reader', p.reader.auth], ['writer', p.writer.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    assert.equal(await numbers(priv, {}, auth), [own.number], `private: ${label}`);
  }
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth]] as const) {
    const r = await list(priv, {}, auth);
    assertEmpty404(r, label);
    assertSpec('issueListIssues', r);
  }
});

test('404: an unknown created_by / assigned_by / mentioned_by user', async () => {
  for (const query of [{ created_by: 'no-such-user' }, { assigned_by: 'no-such-user' }, { mentioned_by: 'no-such-user' }]) {
    const r = await list(pub, query, p.owner.auth);
    assertEmpty404(r, JSON.stringify(query));
    assertSpec('issueListIssues', r);
  }
});

test('units: without the issues unit only pull requests are listed and type=issues is 404; with neither unit 404', async () => {
  const repo = await sharedRepo(app, p);
  const issue = await newIssue(app, repo, p.owner);
  const pr = await pullIndex(repo);
  assert.equal(await numbers(repo, {}, p.reader.auth), [pr, issue.number]);
  await editRepo(app, repo, { has_issues: false });
  assert.equal(await numbers(repo, {}, p.reader.auth), [pr]);
  assertEmpty404(await list(repo, { type: 'issues' }, p.owner.auth), 'type=issues without the unit');
  await editRepo(app, repo, { has_issues: true, has_pull_requests: false });
  assert.equal(await numbers(repo, {}, p.reader.auth), [issue.number]);
  assertEmpty404(await list(repo, { type: 'pulls' }, p.reader.auth), 'type=pulls without the unit');
  await editRepo(app, repo, { has_issues: false });
  const r = await list(repo, {}, p.owner.auth);
  assertEmpty404(r, 'neither unit');
  assertSpec('issueListIssues', r);
});

test('403: a token without an issue scope', async () => {
  const r = await list(pub, {}, await app.token(p.reader, ['read:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueListIssues', r);
  assert.equal(r.error, { message: 'token does not have at least one of required scope(s): [read:issue]', url: swaggerOf(app) });
});

test('422: an unknown state or type, a bad date', async () => {
  for (const query of ['state=bogus', 'type=commits', 'since=yesterday']) {
    const r = await raw(app, 'GET', `/repos/${pub.full_name}/issues?${query}`, { authorization: p.owner.auth });
    assert.is(r.response.status, 422, query);
    assert.is(r.body.url, swaggerOf(app));
  }
});

test.run();
