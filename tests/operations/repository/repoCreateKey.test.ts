import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { addDeployKey, addUserKey, keyPair, withoutComment } from '../../helpers/keys.js';
import { addCollaborator, messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;

const post = (r: Repo, body: { title: string; key: string; read_only?: boolean }, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/keys', { params: { path: r.path }, body });

test.before(async () => {
  app = await startApp();
  p = await people(app);
  repo = await sharedRepo(app, p);
});
test.after(async () => {
  await app.close();
});

test('201: the owner adds a deploy key; its repository shows to the owner; read_only kept', async () => {
  const k = keyPair('ecdsa');
  const r = await post(repo, { title: 'ci', key: k.public, read_only: true }, p.owner.auth);
  assert.is(r.response.status, 201, JSON.stringify(r.error));
  assertSpec('repoCreateKey', r);
  const d = r.data!;
  assert.equal({ ...d, repository: d.repository?.full_name }, {
    id: d.id, key_id: d.key_id, key: withoutComment(k.public), key_type: 'ssh', fingerprint: k.fingerprint, title: 'ci', read_only: true,
    url: `${app.config.rootUrl}api/v1/repos/${repo.full_name}/keys/${d.id}`, created_at: d.created_at, repository: repo.full_name,
  });
  const byAdmin = await post(repo, { title: 'deploy', key: keyPair().public }, p.admin.auth);
  assert.is(byAdmin.response.status, 201);
  assert.is(byAdmin.data!.read_only, false);
  assert.is(byAdmin.data!.repository?.id, repo.id, 'site admin sees the repository');
});

test('a repository admin who is not the owner adds keys but is not shown the repository', async () => {
  const admin = p.outsider;
  await addCollaborator(app, repo, admin, 'admin');
  const r = await post(repo, { title: 'by collaborator', key: keyPair().public }, admin.auth);
  assert.is(r.response.status, 201);
  assert.is(r.data!.repository, undefined);
});

test('one key may serve several repositories (one public key); not twice in one repository, nor under a taken title', async () => {
  const k = keyPair();
  const other = await sharedRepo(app, p);
  const a = await addDeployKey(app, repo, p.owner, k, { title: 'shared' });
  const b = await addDeployKey(app, other, p.owner, k, { title: 'shared' });
  assert.is(a.key_id, b.key_id);
  assert.is.not(a.id, b.id);
  const again = await post(repo, { title: 'another title', key: k.public }, p.owner.auth);
  assert.is(again.response.status, 422);
  assertSpec('repoCreateKey', again);
  assert.match(messageOf(again.error), 'same content');
  const title = await post(repo, { title: 'SHARED', key: keyPair().public }, p.owner.auth);
  assert.is(title.response.status, 422);
  assert.match(messageOf(title.error), 'same name');
});

test('422: a user’s key, a bad key, a private key, an empty title', async () => {
  const u = keyPair();
  await addUserKey(app, p.writer, u);
  for (const [label, body, pattern] of [
    ['user key', { title: 'x', key: u.public }, /used as non-deploy key/],
    ['bad', { title: 'x', key: 'hello' }, /not an OpenSSH public key/],
    ['private', { title: 'x', key: keyPair('rsa').private }, /private key/],
    ['title', { title: ' ', key: keyPair().public }, /Title/],
  ] as const) {
    const r = await post(repo, body, p.owner.auth);
    assert.is(r.response.status, 422, label);
    assertSpec('repoCreateKey', r);
    assert.match(messageOf(r.error), pattern);
  }
});

test('403: a writer or reader; 404: an outsider of a private repository; 423: archived; 401', async () => {
  for (const as of [p.writer, p.reader]) {
    const r = await post(repo, { title: 'x', key: keyPair().public }, as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('repoCreateKey', r);
    assert.is(messageOf(r.error), 'user should be an owner or a collaborator with admin write of a repository');
  }
  const priv = await sharedRepo(app, p, { private: true });
  assertEmpty404(await post(priv, { title: 'x', key: keyPair().public }, p.outsider.auth), 'outsider');
  const archived = await sharedRepo(app, p);
  await editRepo(app, archived, { archived: true });
  const a = await post(archived, { title: 'x', key: keyPair().public }, p.owner.auth);
  assert.is(a.response.status, 423);
  assertSpec('repoCreateKey', a);
  const anon = await post(repo, { title: 'x', key: keyPair().public });
  assert.is(anon.response.status, 401);
});

test.run();
