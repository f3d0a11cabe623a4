import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, fetchRaw, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { pathOf, swaggerOf, userRepo, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let dir: string;
let api: string;
let commit: string;
let v1: string; // annotated tag object of `commit`, made by git
let light: string; // the commit of the lightweight tag
let nested: string; // an annotated tag of the v1 tag object
let blobTag: string; // an annotated tag of a blob
let privTag: string;

const tagger = { GIT_COMMITTER_NAME: 'Tina Tagger', GIT_COMMITTER_EMAIL: 'tina@example.com', GIT_COMMITTER_DATE: '1600000000 +0200' };
const v1Message = 'Release one\n\nWith notes,\nover two lines.\n';

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  dir = dirOf(app, repo);
  api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  commit = await disk.commit(dir, 'main', { 'a.txt': 'a\n' });
  await disk.run(dir, ['tag', '-a', '-F', '-', 'v1', commit], { input: v1Message, env: tagger });
  v1 = (await disk.rev(dir, 'refs/tags/v1'))!;
  light = await disk.commit(dir, 'main', { 'b.txt': 'b\n' });
  await disk.run(dir, ['tag', 'light', light]);
  await disk.run(dir, ['tag', '-a', '-m', 'a tag of a tag', 'nested', v1], { env: tagger });
  nested = (await disk.rev(dir, 'refs/tags/nested'))!;
  const blob = (await disk.rev(dir, `${commit}:a.txt`))!;
  await disk.run(dir, ['tag', '-a', '-m', 'a tag of a blob', 'blobby', blob], { env: tagger });
  blobTag = (await disk.rev(dir, 'refs/tags/blobby'))!;
  const p = dirOf(app, priv);
  await disk.run(p, ['tag', '-a', '-m', 'secret', 'hidden', 'main'], { env: tagger });
  privTag = (await disk.rev(p, 'refs/tags/hidden'))!;
  await disk.run(dir, ['tag', '-a', '-m', 'a tag named like an id', 'cafe', commit], { env: tagger });
});
test.after(async () => {
  await app.close();
});

const get = (target: Repository, sha: string, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/git/tags/{sha}', { params: { path: { ...pathOf(target), sha } } });

test('200: an annotated tag made by git: message with its trailing newline, tagger, object and url', async () => {
  assert.is.not(v1, commit);
  const res = await get(repo, v1);
  assert.is(res.response.status, 200);
  assertSpec('GetAnnotatedTag', res);
  assert.equal(res.data, {
    tag: 'v1',
    sha: v1,
    url: `${api}/git/tags/${v1}`,
    message: v1Message,
    tagger: { name: 'Tina Tagger', email: 'tina@example.com', date: '2020-09-13T12:26:40Z' },
    object: { type: 'commit', url: `${api}/git/commits/${commit}`, sha: commit },
    verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' },
  });
  const object = await disk.run(dir, ['cat-file', 'tag', v1]);
  assert.is(res.data!.message, object.slice(object.indexOf('\n\n') + 2), 'the message as git stored it');
  const upper = await get(repo, v1.toUpperCase());
  assert.is(upper.response.status, 200, 'the sha is case-insensitive');
  assert.is(upper.data!.sha, v1);
});

test('200: an annotated tag made through the API reads back with the newline git adds', async () => {
  const made = await app.client(r.writer.auth).POST('/repos/{owner}/{repo}/tags', {
    params: { path: pathOf(repo) },
    body: { tag_name: 'api-made', message: 'made by the API', target: commit },
  });
  assert.is(made.response.status, 201);
  const res = await get(repo, made.data!.id);
  assert.is(res.response.status, 200);
  assertSpec('GetAnnotatedTag', res);
  assert.is(res.data!.tag, 'api-made');
  assert.is(res.data!.message, 'made by the API\n');
  assert.equal([res.data!.tagger.name, res.data!.tagger.email], [r.writer.username, r.writer.email]);
  assert.equal(res.data!.object, { type: 'commit', url: `${api}/git/commits/${commit}`, sha: commit });
});

test('200: tags of a tag and of a blob name the object type and its API URL', async () => {
  const tagOfTag = await get(repo, nested);
  assert.is(tagOfTag.response.status, 200);
  assertSpec('GetAnnotatedTag', tagOfTag);
  assert.equal(tagOfTag.data!.object, { type: 'tag', url: `${api}/git/tags/${v1}`, sha: v1 });
  assert.is(tagOfTag.data!.message, 'a tag of a tag\n');
  const ofBlob = await get(repo, blobTag);
  assert.is(ofBlob.response.status, 200);
  const blob = (await disk.rev(dir, `${commit}:a.txt`))!;
  assert.equal(ofBlob.data!.object, { type: 'blob', url: `${api}/git/blobs/${blob}`, sha: blob });
});

test('200: anyone who can read the code: anonymous, outsider, reader, writer, owner, site admin; a read:repository token', async () => {
  const callers: Array<[string | undefined, string]> = [
    [undefined, 'anonymous'], [r.outsider.auth, 'outsider'], [r.reader.auth, 'reader'], [r.writer.auth, 'writer'],
    [r.owner.auth, 'owner'], [r.admin.auth, 'site admin'], [await app.token(r.outsider, ['read:repository']), 'token'],
  ];
  for (const [auth, label] of callers) {
    const res = await get(repo, v1, auth);
    assert.is(res.response.status, 200, label);
    assert.is(res.data!.sha, v1, label);
  }
  for (const who of [r.reader, r.writer, r.owner, r.admin]) {
    const res = await get(priv, privTag, who.auth);
    assert.is(res.response.status, 200, `private: ${who.username}`);
    assert.is(res.data!.tag, 'hidden');
  }
});

test('400: a lightweight tag\'s commit, an unknown sha, a tree, a blob, a tag name (even one that looks like an id), a short or malformed id', async () => {
  const tree = (await disk.rev(dir, `${commit}^{tree}`))!;
  const blob = (await disk.rev(dir, `${commit}:a.txt`))!;
  const cases = [light, commit, 'f'.repeat(40), '0'.repeat(40), 'e'.repeat(64), tree, blob, 'v1', 'light', 'main', 'HEAD', 'xyz', '-h',
    `${v1}^{}`, 'cafe', v1.slice(0, 12), `${v1}0`];
  for (const sha of cases) {
    const res = await get(repo, sha, r.owner.auth);
    assert.is(res.response.status, 400, sha);
    assertSpec('GetAnnotatedTag', res);
    assert.is((res.error as { url: string }).url, swaggerOf(app));
  }
  assert.equal(await disk.run(dir, ['cat-file', '-t', light]), 'commit\n', 'light is a commit');
});

test('400: any sha in an empty repository', async () => {
  const empty = await userRepo(app, r.owner);
  const res = await get(empty, v1, r.owner.auth);
  assert.is(res.response.status, 400);
  assertSpec('GetAnnotatedTag', res);
});

test('404 (empty): a private repository for anonymous callers and outsiders; an unknown repository', async () => {
  for (const auth of [undefined, r.outsider.auth]) {
    const res = await get(priv, privTag, auth);
    assert.is(res.response.status, 404);
    assertSpec('GetAnnotatedTag', res);
    assert.is(res.error, undefined);
  }
  assert.is((await get({ full_name: `${r.owner.username}/nope` } as Repository, v1, r.owner.auth)).response.status, 404);
  assert.is((await get({ full_name: `nobody-here/${repo.name}` } as Repository, v1)).response.status, 404);
});

test('401: a wrong token; 403: a token without the repository scope', async () => {
  const bad = await get(repo, v1, `token ${'0'.repeat(40)}`);
  assert.is(bad.response.status, 401);
  assertSpec('GetAnnotatedTag', bad);
  for (const target of [repo, priv]) {
    const res = await get(target, v1, await wrongScope(app, r.owner, false));
    assert.is(res.response.status, 403);
    assertSpec('GetAnnotatedTag', res);
    assert.equal(res.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  }
});

test('422: a NUL character in the sha', async () => {
  const res = await fetchRaw(app, `/repos/${repo.full_name}/git/tags/ab%00cd`);
  assert.is(res.status, 422);
  assertSpecAnswer('GetAnnotatedTag', 422, JSON.parse(res.bytes.toString('utf8')));
});

test.run();
