import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { editIssue, editRepo, newComment, newIssue, newLabel, newMilestone, people, sharedRepo, type Issue, type People, type Repo } from '../../helpers/issues.js';
import { orgWithRepo } from '../../helpers/labels.js';
import { actor, messageOf, rowOf, swaggerOf, type Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { sql } from 'drizzle-orm';
import { withTx } from '../../../src/db/tx.js';
import { rowsOf } from '../../../src/db/raw.js';
import { issues } from '../../../src/db/schema/index.js';
import { issueTextMatch } from '../../../src/services/issues/textMatch.js';

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;
let off: Repo;
let open: Issue;
let closed: Issue;
let secret: Issue;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv, off] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true }), sharedRepo(app, p)]);
  const [bug, v1] = await Promise.all([newLabel(app, pub, p.owner, { name: 'Bug' }), newMilestone(app, pub, p.owner, { title: 'v1' })]);
  open = await newIssue(app, pub, p.writer, { title: 'open one', body: 'needle in the body', labels: [bug.id], milestone: v1.id, assignees: [p.owner.username] });
  closed = await newIssue(app, pub, p.owner, { title: 'closed one' });
  await editIssue(app, pub, closed.number, p.owner, { state: 'closed' });
  secret = await newIssue(app, priv, p.owner, { title: 'secret one' });
  await newIssue(app, off, p.owner, { title: 'issues switched off' });
  await editRepo(app, off, { has_issues: false });
});
test.after(async () => {
  await app.close();
});

type Query = { [k: string]: string | number | boolean | undefined };
const search = (query: Query, authorization?: string) =>
  app.client(authorization).GET('/repos/issues/search', { params: { query: { owner: p.owner.username, ...query } } });
const titles = async (query: Query, as?: Actor) => {
  const r = await search(query, as?.auth);
  assert.is(r.response.status, 200, `${JSON.stringify(query)}: ${JSON.stringify(r.error)}`);
  assertSpec('issueSearchIssues', r);
  return r.data!.map((i) => i.title);
};

test('200: anonymous callers find the open issues of public repositories; each item is what GET issue answers', async () => {
  const r = await search({});
  assert.is(r.response.status, 200);
  assertSpec('issueSearchIssues', r);
  assert.equal(r.data!.map((i) => i.title), ['open one']);
  assert.is(r.response.headers.get('x-total-count'), '1');
  const got = await app.client().GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...pub.path, index: open.number } } });
  assert.equal(r.data![0], got.data);
});

test('200: readers of a private repository find its issues, outsiders do not; issues switched off are hidden from everyone', async () => {
  assert.equal(await titles({ state: 'all' }, p.reader), ['secret one', 'closed one', 'open one']);
  assert.equal(await titles({ state: 'all' }, p.outsider), ['closed one', 'open one']);
  assert.equal(await titles({ state: 'all' }, p.admin), ['secret one', 'closed one', 'open one'], 'site admin; not the switched-off repository');
  assert.equal(await titles({ state: 'all', owner: undefined, q: 'switched off' }, p.owner), []);
});

test('200: state, type, q, labels, milestones, since/before and the caller\'s own filters', async () => {
  assert.equal(await titles({ state: 'closed' }), ['closed one']);
  assert.equal(await titles({ state: 'all', type: 'issues' }), ['closed one', 'open one']);
  assert.equal(await titles({ state: 'all', type: 'pulls' }), []);
  assert.equal(await titles({ q: 'NEEDLE' }), ['open one']);
  await newComment(app, pub, closed.number, p.owner, 'a comment with a haystack');
  assert.equal(await titles({ state: 'all', q: 'haystack' }), ['closed one'], 'keyword in a comment');
  assert.equal(await titles({ state: 'all', labels: 'bug,unknown' }), ['open one'], 'any of the names, case-insensitive');
  assert.equal(await titles({ state: 'all', labels: 'unknown' }), []);
  assert.equal(await titles({ state: 'all', milestones: 'V1' }), ['open one']);
  const future = new Date(Date.now() + 3600_000).toISOString();
  assert.equal(await titles({ state: 'all', since: future }), []);
  assert.equal(await titles({ state: 'all', before: future }, p.reader), ['secret one', 'closed one', 'open one']);
  assert.equal(await titles({ state: 'all', created: true }, p.writer), ['open one']);
  assert.equal(await titles({ state: 'all', created: true }, p.reader), []);
  assert.equal(await titles({ state: 'all', assigned: true }, p.owner), ['open one']);
  assert.equal(await titles({ state: 'all', assigned: true }, p.writer), []);
  assert.equal(await titles({ state: 'all', created: true }), ['closed one', 'open one'], 'ignored for anonymous callers');
  assert.equal(await titles({ state: 'all', review_requested: true }, p.owner), []);
  assert.equal(await titles({ state: 'all', reviewed: true }, p.owner), []);
});

test('200: priority_repo_id first, then newest; page and limit with X-Total-Count and Link', async () => {
  const other = await sharedRepo(app, p);
  await newIssue(app, other, p.owner, { title: 'newest elsewhere' });
  assert.equal(await titles({ state: 'all' }), ['newest elsewhere', 'closed one', 'open one']);
  assert.equal(await titles({ state: 'all', priority_repo_id: pub.id }), ['closed one', 'open one', 'newest elsewhere']);
  const r = await search({ state: 'all', page: 2, limit: 1 });
  assert.equal(r.data!.map((i) => i.title), ['closed one']);
  assert.is(r.response.headers.get('x-total-count'), '3');
  assert.match(r.response.headers.get('link') ?? '', /rel="next"/);
});

test('200: an organization\'s private repository through teams: a team without the issues unit does not reach its issues; owner and team filters', async () => {
  const { w, repo } = await orgWithRepo(app, 'private');
  await editRepo(app, repo, { private: true });
  await newIssue(app, repo, w.owner, { title: 'org issue' });
  const codeOnly = await actor(app);
  const team = (await app.services.teams.create(w.org, { name: 'CodeOnly', permission: 'read', units: ['repo.code'], includesAllRepositories: true })).team;
  await app.services.teams.addMember(team, { user: await rowOf(app, w.owner), isMember: true, isOwner: true }, await rowOf(app, codeOnly));
  const org = (q: Query, as?: Actor) => titles({ owner: w.name, ...q }, as);
  assert.equal(await org({}, w.reader), ['org issue'], 'a team with the issues unit');
  assert.equal(await org({}, codeOnly), [], 'a team without it');
  assert.equal(await org({}, w.outsider), []);
  assert.equal(await org({}), []);
  assert.equal(await org({ team: 'readers' }, w.owner), ['org issue']);
  assert.equal(await org({ team: 'creators' }, w.owner), [], 'a team that holds no repository');
  await assertBadRequest({ owner: w.name, team: 'nope' }, w.owner, `team does not exist [org_id: ${w.org.id}, name: nope]`);
  await assertBadRequest({ owner: undefined, team: 'readers' }, w.owner, 'Owner organisation is required for filtering on team');
});

test('200: q matches title, body and plain comments as a substring, the number (12 and #12), in step with every edit; never a private repository\'s issue for those who cannot read it', async () => {
  const repo = await sharedRepo(app, p);
  const hidden = await sharedRepo(app, p, { private: true });
  const a = await newIssue(app, repo, p.owner, { title: 'Zebra crossing', body: 'plain' });
  const b = await newIssue(app, repo, p.owner, { title: 'plain', body: 'the quagga, see #' + a.number });
  await newIssue(app, hidden, p.owner, { title: 'Zebra in private', body: 'quagga too' });
  const c = await newComment(app, repo, b.number, p.writer, 'an okapi was here');
  const own = (q: string, as?: Actor) => titles({ owner: p.owner.username, state: 'all', q }, as);
  assert.equal(await own('zebra'), ['Zebra crossing'], 'title, case-insensitive; the private one hidden from anonymous callers');
  assert.equal(await own('zebra', p.outsider), ['Zebra crossing'], 'and from a signed-in outsider');
  assert.equal(await own('zebra', p.reader), ['Zebra in private', 'Zebra crossing'], 'a reader of the private repository finds it');
  assert.equal(await own('BRA CRO'), ['Zebra crossing'], 'a substring across words');
  assert.equal(await own('quagga'), ['plain'], 'body');
  assert.equal(await own('okapi'), ['plain'], 'a plain comment');
  assert.equal(await own('Zebra', p.reader).then((t) => t.length), 2);
  // Numbers: the issue of that number in every readable repository, and the text too ("see #N").
  const numbered = (await search({ owner: p.owner.username, state: 'all', q: `#${a.number}` }, p.outsider.auth)).data!;
  assert.ok(numbered.some((i) => i.title === 'Zebra crossing'), '#N names the issue');
  assert.ok(numbered.some((i) => i.title === 'plain'), '#N in a body matches as text');
  assert.ok(numbered.every((i) => i.number === a.number || i.body.includes(`#${a.number}`)), JSON.stringify(numbered.map((i) => i.title)));
  assert.ok((await search({ owner: p.owner.username, state: 'all', q: String(a.number) })).data!.some((i) => i.title === 'Zebra crossing'), 'N alone');
  assert.ok(!numbered.some((i) => i.title === 'Zebra in private'), 'not the private repository\'s issue of that number');
  // Edits count at once: the indexes are written in the editing transaction.
  await editIssue(app, repo, a.number, p.owner, { title: 'Tapir crossing' });
  assert.equal(await own('zebra'), []);
  assert.equal(await own('tapir'), ['Tapir crossing']);
  await app.client(p.writer.auth).PATCH('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id: c.id } }, body: { body: 'a wombat now' } });
  assert.equal(await own('okapi'), []);
  assert.equal(await own('wombat'), ['plain']);
  await app.client(p.writer.auth).DELETE('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...repo.path, id: c.id } } });
  assert.equal(await own('wombat'), []);
  // Event comments are not searched (Gitea matches plain comments only): the title change above left one.
  assert.equal(await own('Zebra crossing'), []);
  assert.equal(await own('100%'), [], 'LIKE wildcards are literal');
});

test('the keyword is answered by the trigram indexes (a plan without sequential scans)', async () => {
  const plan = await withTx(app.services.deps.db, async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    return rowsOf<Record<string, string>>(await tx.execute(sql`explain select id from ${issues} where ${issueTextMatch('needle')}`))
      .map((r) => Object.values(r)[0]).join('\n');
  });
  for (const name of ['issues_title_trgm_idx', 'issues_body_trgm_idx', 'comments_body_trgm_idx']) assert.match(plan, name, plan);
});

async function assertBadRequest(query: Query, as: Actor | undefined, message: string) {
  const r = await search(query, as?.auth);
  assert.is(r.response.status, 400, JSON.stringify(query));
  assertSpec('issueSearchIssues', r);
  assert.equal(r.error, { message, url: swaggerOf(app) });
}

test('400: an unknown owner; 422: a bad state or date', async () => {
  await assertBadRequest({ owner: 'no-such-user' }, undefined, 'user does not exist [name: no-such-user]');
  for (const query of [{ state: 'nope' }, { since: 'yesterday' }]) {
    const r = await search(query);
    assert.is(r.response.status, 422, JSON.stringify(query));
    assertSpec('issueSearchIssues', r);
    assert.ok(messageOf(r.error));
  }
});

test.run();
