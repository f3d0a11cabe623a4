import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { addDeployKey, keyPair, type DeployKey } from '../../helpers/keys.js';
import { actor, messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let keys: DeployKey[];

const list = (r: Repo, query: Record<string, string | number>, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/keys', { params: { path: r.path, query } });

test.before(async () => {
  app = await startApp();
  p = await people(app);
  repo = await sharedRepo(app, p);
  keys = [];
  for (const t of ['a', 'b', 'c']) keys.push(await addDeployKey(app, repo, p.owner, keyPair(), { title: t }));
  await addDeployKey(app, await sharedRepo(app, p), p.owner);
});
test.after(async () => {
  await app.close();
});

test('200: the repository’s deploy keys, oldest first, with X-Total-Count and pages', async () => {
  const r = await list(repo, {}, p.owner.auth);
  assert.is(r.response.status, 200);
  assertSpec('repoListKeys', r);
  assert.equal(r.data, keys);
  assert.is(r.response.headers.get('x-total-count'), '3');
  assert.equal((await list(repo, { limit: 2, page: 2 }, p.owner.auth)).data!.map((k) => k.title), ['c']);
  assert.equal((await list(repo, {}, p.admin.auth)).data!.map((k) => k.id), keys.map((k) => k.id), 'site admin');
});

test('key_id and fingerprint filter', async () => {
  assert.equal((await list(repo, { key_id: keys[1]!.key_id }, p.owner.auth)).data!.map((k) => k.id), [keys[1]!.id]);
  assert.equal((await list(repo, { fingerprint: keys[2]!.fingerprint }, p.owner.auth)).data!.map((k) => k.id), [keys[2]!.id]);
  const none = await list(repo, { fingerprint: 'SHA256:x' }, p.owner.auth);
  assert.equal(none.data, []);
  assert.is(none.response.headers.get('x-total-count'), '0');
});

test('401: anonymous; 403: writers and readers; 404: a private repository for outsiders', async () => {
  const anon = await list(repo, {});
  assert.is(anon.response.status, 401);
  assertSpec('repoListKeys', anon);
  for (const as of [p.writer, p.reader, p.outsider]) {
    const r = await list(repo, {}, as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('repoListKeys', r);
    assert.is(messageOf(r.error), 'user should be an owner or a collaborator with admin write of a repository');
  }
  const priv = await sharedRepo(app, p, { private: true });
  const stranger = await actor(app);
  const r = await list(priv, {}, stranger.auth);
  assertEmpty404(r, 'stranger');
  assertSpec('repoListKeys', r);
});

test.run();
