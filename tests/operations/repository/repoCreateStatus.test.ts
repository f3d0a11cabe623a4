import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, setArchived, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { eventsOf } from '../../helpers/events.js';
import { eventually, fastHooks, hookBody, receiver, repoHook, type Receiver } from '../../helpers/hooks.js';
import { messageOf, pathOf, raw, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';
import { postStatus, report, states } from '../../helpers/statuses.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let dir: string;
let api: string;
let first: string;
let devTip: string;
let rx: Receiver;

test.before(async () => {
  app = await startApp({ ...fastHooks, MAX_BODY_SIZE: '4096' }, { workers: true });
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([
    repoFor(app, r),
    repoFor(app, r, { private: true }),
    repoFor(app, r, { auto_init: false }),
  ]);
  dir = dirOf(app, repo);
  api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  first = (await disk.tip(dir, 'main'))!;
  devTip = await disk.commit(dir, 'dev', { 'dev.txt': 'dev' }, { from: first, message: 'on dev\n' });
  await disk.run(dir, ['tag', 'v1', devTip]);
  rx = await receiver();
});
test.after(async () => {
  await rx?.close();
  await app?.close();
});

const statusesOf = async (sha: string, target = repo, auth = r.owner.auth) => {
  const res = await app.client(auth).GET('/repos/{owner}/{repo}/statuses/{sha}', { params: { path: { ...pathOf(target), sha }, query: { limit: 50, sort: 'highestindex' } } });
  assert.is(res.response.status, 200);
  return res.data!;
};

test('201: the status as stored, numbered per commit, trimmed; read-after-write', async () => {
  const before = Date.now();
  const res = await postStatus(app, r.writer.auth, repo, first, {
    state: 'pending', target_url: '  https://ci.example.com/build/1  ', description: '  building  ', context: '  ci/build  ',
  });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('repoCreateStatus', res);
  const s = res.data!;
  assert.equal({ ...s, creator: s.creator.login, created_at: undefined, updated_at: undefined }, {
    id: 1, status: 'pending', target_url: 'https://ci.example.com/build/1', description: 'building', context: 'ci/build',
    url: `${api}/statuses/${first}`, creator: r.writer.username, created_at: undefined, updated_at: undefined,
  });
  assert.is(s.created_at, s.updated_at);
  assert.ok(Date.parse(s.created_at) >= Math.floor(before / 1000) * 1000);
  const second = await report(app, r.owner.auth, repo, first, { state: 'success', context: 'ci/build' });
  assert.is(second.id, 2, 'the next number of this commit');
  const other = await report(app, r.owner.auth, repo, devTip, { state: 'success' });
  assert.is(other.id, 1, 'another commit numbers from 1');
  assert.equal(other.context, '');
  assert.equal(other.target_url, '');
  const listed = await statusesOf(first, repo, r.writer.auth);
  assert.equal(listed[0], s, 'the list shows the same status (seen by its creator)');
  assert.equal({ ...listed[1]!, creator: listed[1]!.creator.login }, { ...second, creator: r.owner.username });
  assert.is(second.creator.login, r.owner.username);
});

test('201: {sha} may be an abbreviated id, a branch or a tag: stored for the full commit id', async () => {
  for (const [given, commit] of [[devTip.slice(0, 8), devTip], ['dev', devTip], ['v1', devTip], ['main', first], [first.toUpperCase(), first]] as const) {
    const s = await report(app, r.writer.auth, repo, given, { state: 'success', context: `via ${given}` });
    assert.is(s.url, `${api}/statuses/${commit}`, given);
    assert.ok((await statusesOf(commit)).some((x) => x.context === `via ${given}`), given);
  }
});

test('201: every state; writers, the owner, the site admin, a write:repository token; a private repository', async () => {
  for (const state of states) assert.is((await report(app, r.writer.auth, repo, devTip, { state, context: state })).status, state);
  for (const who of [r.owner, r.admin]) await report(app, who.auth, repo, devTip, { state: 'success', context: who.username });
  await report(app, await app.token(r.writer, ['write:repository']), repo, devTip, { state: 'success', context: 'token' });
  const p = await report(app, r.writer.auth, priv, 'main', { state: 'failure', description: 'red' });
  assert.is(p.status, 'failure');
});

test('201: concurrent reporters on one commit get distinct consecutive numbers', async () => {
  const tip = await disk.commit(dir, 'race', { 'r.txt': 'r' }, { from: first });
  const made = await Promise.all(Array.from({ length: 20 }, (_, i) => report(app, r.writer.auth, repo, tip, { state: 'pending', context: `c${i}` })));
  assert.equal(made.map((s) => s.id).sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1));
});

test('the status webhook and the recorded event', async () => {
  const target = await repoFor(app, r);
  const hooked = await repoHook(app, r.owner.auth, pathOf(target), hookBody(rx.url, { events: ['status'] }));
  const tip = (await disk.tip(dirOf(app, target), 'main'))!;
  const s = await report(app, r.writer.auth, target, 'main', { state: 'success', context: 'ci/test', description: 'green', target_url: 'https://ci.example.com/2' });
  const delivered = await eventually(() => rx.of('status').find((x) => JSON.parse(x.body).repository.full_name === target.full_name), 'the status delivery');
  assert.is(delivered.headers['x-gitea-event'], 'status');
  const body = JSON.parse(delivered.body);
  assert.equal(
    [body.sha, body.state, body.context, body.description, body.target_url, body.commit.id, body.sender.login, body.created_at],
    [tip, 'success', 'ci/test', 'green', 'https://ci.example.com/2', tip, r.writer.username, s.created_at],
  );
  assert.is(body.commit.url, `${app.config.rootUrl}${target.full_name}/commit/${tip}`);
  assert.ok(hooked.id > 0);
  const { kinds } = await eventsOf(app, target.id);
  assert.ok(kinds.includes('status'), kinds.join());
});

test('401: anonymous callers and a wrong token', async () => {
  for (const auth of [undefined, `token ${'0'.repeat(40)}`]) {
    const res = await postStatus(app, auth, repo, first, { state: 'success', context: 'anon' });
    assert.is(res.response.status, 401);
    assertSpec('repoCreateStatus', res);
  }
  assert.not.ok((await statusesOf(first)).some((s) => s.context === 'anon'));
});

test('403: readers, outsiders of a public repository, a token without write:repository', async () => {
  for (const who of [r.reader, r.outsider]) {
    const res = await postStatus(app, who.auth, repo, first, { state: 'success', context: 'nope' });
    assert.is(res.response.status, 403, who.username);
    assertSpec('repoCreateStatus', res);
    assert.equal(res.error, { message: 'user should have a permission to write to a repo', url: swaggerOf(app) });
  }
  const scoped = await postStatus(app, await wrongScope(app, r.owner, true), repo, first, { state: 'success', context: 'nope' });
  assert.is(scoped.response.status, 403);
  assert.is((await postStatus(app, r.reader.auth, priv, 'main', { state: 'success' })).response.status, 403);
  assert.not.ok((await statusesOf(first)).some((s) => s.context === 'nope'));
});

test('422: an unknown commit, also in an empty repository (Gitea answers 500)', async () => {
  for (const sha of ['f'.repeat(40), 'nope', 'dev~99', '-x']) {
    const res = await postStatus(app, r.writer.auth, repo, sha, { state: 'success' });
    assert.is(res.response.status, 422, sha);
    assertSpec('repoCreateStatus', res);
    assert.equal(res.error, { message: `[sha]: commit "${sha}" does not exist`, url: swaggerOf(app) });
  }
  const e = await postStatus(app, r.owner.auth, empty, 'main', { state: 'success' });
  assert.is(e.response.status, 422);
  assert.equal(e.error, { message: '[sha]: commit "main" does not exist', url: swaggerOf(app) });
});

test('404: an invisible or missing repository', async () => {
  assert.is((await postStatus(app, r.outsider.auth, priv, 'main', { state: 'success' })).response.status, 404);
  assert.is((await postStatus(app, r.owner.auth, { full_name: `${r.owner.username}/nope` } as Repository, first, { state: 'success' })).response.status, 404);
});

test('422: a missing or unknown state, a target_url that is not an http(s) URL', async () => {
  const cases: Array<[string, RegExp]> = [
    ['{}', /state/],
    ['{"state":"green"}', /state/],
    ['{"state":null}', /state/],
    ['{"state":"success","target_url":"not a url"}', /target_url/],
    ['{"state":"success","target_url":"javascript:alert(1)"}', /target_url/],
    ['{"state":"success","target_url":"/relative"}', /target_url/],
    ['{"state":"success","context":5}', /context/],
  ];
  for (const [body, pattern] of cases) {
    const res = await raw(app, 'POST', `/repos/${repo.full_name}/statuses/${first}`, { body, authorization: r.writer.auth });
    assert.is(res.response.status, 422, body);
    assertSpecAnswer('repoCreateStatus', 422, res.body);
    assert.match(res.body.message, pattern, body);
  }
  const ok = await report(app, r.writer.auth, repo, first, { state: 'success', target_url: null, description: null, context: null });
  assert.is(ok.target_url, '');
});

test('400: a malformed JSON body; 413: a body over the size limit', async () => {
  const bad = await raw(app, 'POST', `/repos/${repo.full_name}/statuses/${first}`, { body: '{"state":', authorization: r.writer.auth });
  assert.is(bad.response.status, 400);
  assertSpecAnswer('repoCreateStatus', 400, bad.body);
  const big = await raw(app, 'POST', `/repos/${repo.full_name}/statuses/${first}`, {
    body: JSON.stringify({ state: 'success', description: 'd'.repeat(5000) }), authorization: r.writer.auth,
  });
  assert.is(big.response.status, 413);
  assertSpecAnswer('repoCreateStatus', 413, big.body);
});

test('423: an archived repository for writers; 403 for readers first', async () => {
  const archived = await repoFor(app, r);
  await setArchived(app, archived, r.owner);
  for (const who of [r.writer, r.owner, r.admin]) {
    const res = await postStatus(app, who.auth, archived, 'main', { state: 'success' });
    assert.is(res.response.status, 423, who.username);
    assertSpec('repoCreateStatus', res);
    assert.equal(res.error, { message: 'repo is archived', url: swaggerOf(app) });
  }
  assert.is((await postStatus(app, r.reader.auth, archived, 'main', { state: 'success' })).response.status, 403);
});

test.run();
