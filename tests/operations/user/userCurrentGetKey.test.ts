import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, people, sharedRepo, type People } from '../../helpers/issues.js';
import { addDeployKey, addUserKey } from '../../helpers/keys.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;

const get = (id: number, authorization?: string) => app.client(authorization).GET('/user/keys/{id}', { params: { path: { id } } });

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

test('200: the caller’s key as it was added', async () => {
  const k = await addUserKey(app, p.writer);
  const r = await get(k.id, p.writer.auth);
  assert.is(r.response.status, 200);
  assertSpec('userCurrentGetKey', r);
  assert.equal(r.data, k);
});

test('404: another user’s key (the site admin’s own view included), a deploy key’s id, an unknown id; 401', async () => {
  const k = await addUserKey(app, p.writer);
  for (const as of [p.reader, p.admin]) assertEmpty404(await get(k.id, as.auth), as.username);
  const repo = await sharedRepo(app, p);
  const d = await addDeployKey(app, repo, p.owner);
  assertEmpty404(await get(d.key_id, p.owner.auth), 'deploy key');
  const r = await get(987654, p.writer.auth);
  assertEmpty404(r, 'unknown');
  assertSpec('userCurrentGetKey', r);
  const anon = await get(k.id);
  assert.is(anon.response.status, 401);
  assertSpec('userCurrentGetKey', anon);
});

test.run();
