import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { addDeployKey } from '../../helpers/keys.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;

const get = (r: Repo, id: number, authorization?: string) => app.client(authorization).GET('/repos/{owner}/{repo}/keys/{id}', { params: { path: { ...r.path, id } } });

test.before(async () => {
  app = await startApp();
  p = await people(app);
  repo = await sharedRepo(app, p);
});
test.after(async () => {
  await app.close();
});

test('200: the deploy key as it was added', async () => {
  const d = await addDeployKey(app, repo, p.owner);
  const r = await get(repo, d.id, p.owner.auth);
  assert.is(r.response.status, 200);
  assertSpec('repoGetKey', r);
  assert.equal(r.data, d);
});

test('404: another repository’s deploy key, an unknown id; 403: a writer; 401', async () => {
  const other = await sharedRepo(app, p);
  const d = await addDeployKey(app, other, p.owner);
  const r = await get(repo, d.id, p.owner.auth);
  assertEmpty404(r, 'other repository');
  assertSpec('repoGetKey', r);
  assertEmpty404(await get(repo, 987654, p.owner.auth), 'unknown');
  const w = await get(other, d.id, p.writer.auth);
  assert.is(w.response.status, 403);
  assertSpec('repoGetKey', w);
  const anon = await get(other, d.id);
  assert.is(anon.response.status, 401);
});

test.run();
