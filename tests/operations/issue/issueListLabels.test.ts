import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, newLabel, people, sharedRepo, type Label, type People, type Repo } from '../../helpers/issues.js';
import { linksOf } from '../../helpers/orgs.js';
import { swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;
let made: Label[];

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  made = [];
  for (const [name, extra] of [['wontfix', {}], ['bug', { description: 'broken' }], ['kind/feature', { exclusive: true }], ['archived', { is_archived: true }]] as const) {
    made.push(await newLabel(app, pub, p.writer, { name, ...extra }));
  }
  await newLabel(app, priv, p.owner, { name: 'secret' });
});
test.after(async () => {
  await app.close();
});

const list = (repo: Repo, query: { page?: number; limit?: number } = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/labels', { params: { path: repo.path, query } });

test('200: the repository\'s labels ordered by name, archived ones included, as created', async () => {
  const r = await list(pub, {}, p.reader.auth);
  assert.is(r.response.status, 200);
  assertSpec('issueListLabels', r);
  assert.equal(r.data!.map((l) => l.name), ['archived', 'bug', 'kind/feature', 'wontfix']);
  const byName = new Map(made.map((l) => [l.name, l]));
  for (const l of r.data!) assert.equal(l, byName.get(l.name));
  assert.is(r.data![2]!.exclusive, true);
  assert.is(r.data![0]!.is_archived, true);
  assert.is(r.response.headers.get('X-Total-Count'), '4');
});

test('200: paginated with X-Total-Count and Link', async () => {
  const r = await list(pub, { limit: 3, page: 2 });
  assertSpec('issueListLabels', r);
  assert.equal(r.data!.map((l) => l.name), ['wontfix']);
  assert.is(r.response.headers.get('X-Total-Count'), '4');
  assert.equal(linksOf(r.response.headers.get('Link')), { first: { page: 1, limit: 3 }, prev: { page: 1, limit: 3 } });
});

test('200: every role that can read — anonymous and outsider on a public repository, members of a private one', async () => {
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth], ['writer', p.writer.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    const r = await list(pub, {}, auth);
    assert.is(r.response.status, 200, label);
    assert.is(r.data!.length, 4, label);
  }
  for (const [label, auth] of [['reader', p.reader.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    const r = await list(priv, {}, auth);
    assert.is(r.response.status, 200, label);
    assert.equal(r.data!.map((l) => l.name), ['secret']);
  }
  const empty = await sharedRepo(app, p);
  assert.equal((await list(empty)).data, []);
});

test('404: a private repository for anonymous and outsider; a repository with neither issues nor pull requests', async () => {
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth]] as const) {
    const r = await list(priv, {}, auth);
    assertEmpty404(r, label);
    assertSpec('issueListLabels', r);
  }
  const repo = await sharedRepo(app, p);
  await newLabel(app, repo, p.owner);
  await editRepo(app, repo, { has_issues: false });
  assert.is((await list(repo, {}, p.reader.auth)).response.status, 200, 'pull requests are enough');
  await editRepo(app, repo, { has_pull_requests: false });
  assertEmpty404(await list(repo, {}, p.owner.auth), 'neither unit');
});

test('403: a token without an issue scope', async () => {
  const r = await list(pub, {}, await app.token(p.reader, ['read:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueListLabels', r);
  assert.equal(r.error, { message: 'token does not have at least one of required scope(s): [read:issue]', url: swaggerOf(app) });
});

test.run();
