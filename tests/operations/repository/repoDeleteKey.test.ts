import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { addDeployKey, addUserKey, keyPair } from '../../helpers/keys.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;

const del = (r: Repo, id: number, authorization?: string) => app.client(authorization).DELETE('/repos/{owner}/{repo}/keys/{id}', { params: { path: { ...r.path, id } } });
const ids = async (r: Repo) => (await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/keys', { params: { path: r.path } })).data!.map((k) => k.id);

test.before(async () => {
  app = await startApp();
  p = await people(app);
  repo = await sharedRepo(app, p);
});
test.after(async () => {
  await app.close();
});

test('204: the deploy key leaves this repository only; the key is free once no repository uses it', async () => {
  const pair = keyPair();
  const other = await sharedRepo(app, p);
  const here = await addDeployKey(app, repo, p.owner, pair);
  const there = await addDeployKey(app, other, p.owner, pair);
  const r = await del(repo, here.id, p.owner.auth);
  assert.is(r.response.status, 204);
  assertSpec('repoDeleteKey', r);
  assert.equal(await ids(repo), []);
  assert.equal(await ids(other), [there.id]);
  assertEmpty404(await del(repo, here.id, p.owner.auth), 'again');
  const stillUsed = await app.client(p.writer.auth).POST('/user/keys', { body: { title: 't', key: pair.public } });
  assert.is(stillUsed.response.status, 422, 'another repository still uses it');
  assert.is((await del(other, there.id, p.admin.auth)).response.status, 204);
  assert.is((await addUserKey(app, p.writer, pair)).fingerprint, pair.fingerprint, 'free now');
});

test('403: a writer; 404: another repository’s key; 401', async () => {
  const d = await addDeployKey(app, repo, p.owner);
  const w = await del(repo, d.id, p.writer.auth);
  assert.is(w.response.status, 403);
  assertSpec('repoDeleteKey', w);
  const other = await sharedRepo(app, p);
  assertEmpty404(await del(other, d.id, p.owner.auth), 'other repository');
  const anon = await del(repo, d.id);
  assert.is(anon.response.status, 401);
  assertSpec('repoDeleteKey', anon);
  assert.equal(await ids(repo), [d.id]);
});

test.run();
