import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, setArchived, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { messageOf, pathOf, raw, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type Body = components['schemas']['CreateTagOption'];
type Tag = components['schemas']['Tag'];

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let dir: string;
let api: string;
let html: string;
let first: string;
let mainTip: string;
let devTip: string;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

test.before(async () => {
  app = await startApp({ MAX_BODY_SIZE: '4096' });
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([
    repoFor(app, r),
    repoFor(app, r, { private: true }),
    repoFor(app, r, { auto_init: false }),
  ]);
  dir = dirOf(app, repo);
  api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  html = `${app.config.rootUrl}${repo.full_name}`;
  first = (await disk.tip(dir, 'main'))!;
  mainTip = await disk.commit(dir, 'main', { 'a.txt': 'a' }, { message: '  Second commit\n\nwith a body\n', date: new Date('2022-02-02T02:02:02Z') });
  devTip = await disk.commit(dir, 'dev', { 'dev.txt': 'dev' }, { from: first, message: 'on dev\n', date: new Date('2021-01-01T00:00:00Z') });
});
test.after(async () => {
  await app.close();
});

const create = (target: Repository, body: Body, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/tags', { params: { path: pathOf(target) }, body });

async function listed(name: string, target = repo): Promise<Tag | undefined> {
  const res = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}/tags', { params: { path: pathOf(target), query: { limit: 50 } } });
  return res.data!.find((t) => t.name === name);
}

async function tagged(res: Awaited<ReturnType<typeof create>>, name: string) {
  assert.is(res.response.status, 201, `${name}: ${JSON.stringify(res.error)}`);
  assertSpec('repoCreateTag', res);
  assert.is(res.data!.name, name);
  assert.is(await disk.rev(dir, `refs/tags/${name}`), res.data!.id, `refs/tags/${name} in git`);
  return res.data!;
}

test('201: a lightweight tag of the default branch: the commit\'s message and date; read-after-write', async () => {
  const t = await tagged(await create(repo, { tag_name: 'light' }, r.writer.auth), 'light');
  assert.equal(t, {
    name: 'light',
    message: 'Second commit\n\nwith a body',
    id: mainTip,
    commit: { url: `${api}/git/commits/${mainTip}`, sha: mainTip, created: '2022-02-02T02:02:02Z' },
    zipball_url: `${html}/archive/light.zip`,
    tarball_url: `${html}/archive/light.tar.gz`,
  });
  assert.is(await disk.run(dir, ['cat-file', '-t', 'refs/tags/light']), 'commit\n', 'no tag object');
  assert.equal(await listed('light'), t, 'the list shows the same tag');
});

test('201: an annotated tag: a tag object with the caller as tagger; read-after-write', async () => {
  const before = Math.floor(Date.now() / 1000);
  const t = await tagged(await create(repo, { tag_name: 'v1.0', message: '  Release 1.0\n\nNotes.\n\n', target: 'dev' }, r.writer.auth), 'v1.0');
  const after = Math.ceil(Date.now() / 1000);
  assert.is(await disk.run(dir, ['cat-file', '-t', t.id]), 'tag\n');
  assert.is.not(t.id, devTip);
  const [taggerName, taggerEmail, taggerDate, object] = (await disk.run(dir, [
    'for-each-ref', '--format=%(taggername)%00%(taggeremail:trim)%00%(taggerdate:unix)%00%(*objectname)', 'refs/tags/v1.0',
  ])).trim().split('\0');
  assert.equal([taggerName, taggerEmail], [r.writer.username, r.writer.email]);
  assert.is(object, devTip);
  const raw = await disk.run(dir, ['cat-file', 'tag', t.id]);
  assert.is(raw.slice(raw.indexOf('\n\n') + 2), '  Release 1.0\n\nNotes.\n\n', 'the message as given');
  assert.ok(Number(taggerDate) >= before && Number(taggerDate) <= after);
  assert.equal(t, {
    name: 'v1.0',
    message: 'Release 1.0\n\nNotes.',
    id: t.id,
    commit: { url: `${api}/git/commits/${t.id}`, sha: devTip, created: iso(Number(taggerDate)) },
    zipball_url: `${html}/archive/v1.0.zip`,
    tarball_url: `${html}/archive/v1.0.tar.gz`,
  });
  assert.equal(await listed('v1.0'), t, 'the list shows the same tag');
  const annotated = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/git/tags/{sha}', { params: { path: { ...pathOf(repo), sha: t.id } } });
  assert.is(annotated.response.status, 200);
  assert.is(annotated.data!.object.sha, devTip);
});

test('201: target may be a branch, a tag (peeled to its commit), a commit id; default branch when absent, null or empty', async () => {
  await create(repo, { tag_name: 'ann-src', message: 'annotated source', target: first }, r.owner.auth);
  const cases: Array<[Partial<Body>, string]> = [
    [{ target: 'dev' }, devTip],
    [{ target: 'ann-src' }, first],
    [{ target: 'light' }, mainTip],
    [{ target: first }, first],
    [{ target: first.slice(0, 10) }, first],
    [{}, mainTip],
    [{ target: null }, mainTip],
    [{ target: '' }, mainTip],
    [{ target: 'dev', message: '' }, devTip],
    [{ target: 'dev', message: null }, devTip],
  ];
  let n = 0;
  for (const [body, commit] of cases) {
    const name = `t${n++}`;
    const t = await tagged(await create(repo, { tag_name: name, ...body }, r.writer.auth), name);
    assert.is(t.commit.sha, commit, JSON.stringify(body));
    if (!body.message) assert.is(t.id, commit, `${JSON.stringify(body)}: lightweight`);
  }
});

test('201: writers, the owner and the site admin; Unicode and slashed names; a private repository', async () => {
  for (const [who, name] of [[r.writer, 'versión/1'], [r.owner, 'release/2024/q1'], [r.admin, 'x'.repeat(100)]] as const) {
    const t = await tagged(await create(repo, { tag_name: name, message: `by ${who.username}` }, who.auth), name);
    assert.is(t.message, `by ${who.username}`);
  }
  const p = await create(priv, { tag_name: 'secret' }, r.writer.auth);
  assert.is(p.response.status, 201);
  assert.is(await disk.rev(dirOf(app, priv), 'refs/tags/secret'), p.data!.id);
  const token = await create(repo, { tag_name: 'by-token' }, await app.token(r.writer, ['write:repository']));
  assert.is(token.response.status, 201);
});

test('401: anonymous callers and a wrong token', async () => {
  for (const auth of [undefined, `token ${'0'.repeat(40)}`]) {
    const res = await create(repo, { tag_name: 'anon' }, auth);
    assert.is(res.response.status, 401);
    assertSpec('repoCreateTag', res);
  }
  assert.is(await disk.rev(dir, 'refs/tags/anon'), undefined);
});

test('403: readers, outsiders, a token without write:repository', async () => {
  for (const who of [r.reader, r.outsider]) {
    const res = await create(repo, { tag_name: 'nope', message: 'm' }, who.auth);
    assert.is(res.response.status, 403, who.username);
    assertSpec('repoCreateTag', res);
    assert.equal(res.error, { message: 'user should have a permission to write to a repo', url: swaggerOf(app) });
  }
  const scoped = await create(repo, { tag_name: 'nope' }, await wrongScope(app, r.owner, true));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [write:repository]', url: swaggerOf(app) });
  assert.is((await create(priv, { tag_name: 'nope' }, r.reader.auth)).response.status, 403);
  assert.is(await disk.rev(dir, 'refs/tags/nope'), undefined);
});

test('404: an unknown target, an empty repository, an invisible repository', async () => {
  for (const target of ['nope', 'f'.repeat(40), 'dev~99']) {
    const res = await create(repo, { tag_name: 'missing', target }, r.writer.auth);
    assert.is(res.response.status, 404, target);
    assertSpec('repoCreateTag', res);
    assert.is(res.error, undefined);
  }
  assert.is(await disk.rev(dir, 'refs/tags/missing'), undefined);
  for (const body of [{ tag_name: 'v1' }, { tag_name: 'v1', target: 'main' }]) {
    const res = await create(empty, body, r.owner.auth);
    assert.is(res.response.status, 404, `empty: ${JSON.stringify(body)}`);
  }
  assert.is((await create(priv, { tag_name: 'x' }, r.outsider.auth)).response.status, 404);
  assert.is((await create({ full_name: `${r.owner.username}/nope` } as Repository, { tag_name: 'x' }, r.owner.auth)).response.status, 404);
});

test('409: a tag of that name exists (lightweight or annotated), or the name conflicts with a tag path', async () => {
  await tagged(await create(repo, { tag_name: 'rel' }, r.writer.auth), 'rel');
  await tagged(await create(repo, { tag_name: 'deep/one' }, r.writer.auth), 'deep/one');
  const before = await disk.run(dir, ['for-each-ref']);
  for (const [body, pattern] of [
    [{ tag_name: 'light' }, /tag light already exists/],
    [{ tag_name: 'v1.0', message: 'again' }, /tag v1\.0 already exists/],
    [{ tag_name: 'rel/1' }, /conflicts/],
    [{ tag_name: 'deep' }, /conflicts/],
  ] as const) {
    const res = await create(repo, { ...body, target: first }, r.writer.auth);
    assert.is(res.response.status, 409, body.tag_name);
    assertSpec('repoCreateTag', res);
    assert.match(messageOf(res.error), pattern);
  }
  assert.is(await disk.run(dir, ['for-each-ref']), before, 'no ref changed');
  const raced = await Promise.all([r.writer, r.owner, r.admin].map((who) => create(repo, { tag_name: 'raced', message: who.username }, who.auth)));
  assert.equal(raced.map((a) => a.response.status).sort(), [201, 409, 409]);
  const winner = raced.find((a) => a.response.status === 201)!;
  assert.is(await disk.rev(dir, 'refs/tags/raced'), winner.data!.id);
});

test('422: names that are not valid git ref names or longer than 100 characters; a missing tag_name', async () => {
  for (const name of ['a..b', 'v1.lock', '-v', 'a b', 'v~1', 'v^1', 'v:1', 'v?', 'v*', 'v[1', 'x/', '/x', '.x', 'a//b', 'v@{1}', '@', 'x'.repeat(101), '']) {
    const res = await create(repo, { tag_name: name }, r.writer.auth);
    assert.is(res.response.status, 422, JSON.stringify(name));
    assertSpec('repoCreateTag', res);
    assert.match(messageOf(res.error), /tag_name/);
  }
  const missing = await raw(app, 'POST', `/repos/${repo.full_name}/tags`, { body: '{"message":"m"}', authorization: r.writer.auth });
  assert.is(missing.response.status, 422);
  assertSpecAnswer('repoCreateTag', 422, missing.body);
  assert.equal(missing.body, { message: '[tag_name]: Required', url: swaggerOf(app) });
});

test('400: a malformed JSON body; 413: a body over the size limit', async () => {
  const bad = await raw(app, 'POST', `/repos/${repo.full_name}/tags`, { body: '{"tag_name":', authorization: r.writer.auth });
  assert.is(bad.response.status, 400);
  assertSpecAnswer('repoCreateTag', 400, bad.body);
  assert.match(bad.body.message, /invalid JSON body/);
  const big = await raw(app, 'POST', `/repos/${repo.full_name}/tags`, {
    body: JSON.stringify({ tag_name: 'big', message: 'm'.repeat(5000) }), authorization: r.writer.auth,
  });
  assert.is(big.response.status, 413);
  assertSpecAnswer('repoCreateTag', 413, big.body);
  assert.is(await disk.rev(dir, 'refs/tags/big'), undefined);
});

test('423: an archived repository for writers; 403 for readers first', async () => {
  const archived = await repoFor(app, r);
  await setArchived(app, archived, r.owner);
  for (const who of [r.writer, r.owner, r.admin]) {
    const res = await create(archived, { tag_name: 'late' }, who.auth);
    assert.is(res.response.status, 423, who.username);
    assertSpec('repoCreateTag', res);
    assert.equal(res.error, { message: 'repo is archived', url: swaggerOf(app) });
  }
  assert.is((await create(archived, { tag_name: 'late' }, r.reader.auth)).response.status, 403);
  assert.is(await disk.rev(dirOf(app, archived), 'refs/tags/late'), undefined);
});

test.run();
