import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addGpgKey, gpgPair, type GPGKey } from '../../helpers/gpg.js';
import { assertEmpty404, people, type People } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let key: GPGKey;

const get = (id: number, authorization?: string) => app.client(authorization).GET('/user/gpg_keys/{id}', { params: { path: { id } } });

test.before(async () => {
  app = await startApp();
  p = await people(app);
  key = await addGpgKey(app, p.writer, await gpgPair(p.writer.email));
});
test.after(async () => {
  await app.close();
});

test('200: the key with its subkeys, as added; a subkey’s own id answers the subkey row (as Gitea)', async () => {
  const r = await get(key.id, p.writer.auth);
  assert.is(r.response.status, 200);
  assertSpec('userCurrentGetGPGKey', r);
  assert.equal(r.data, key);
  const sub = key.subkeys[0]!;
  const bySub = await get(sub.id, p.writer.auth);
  assert.is(bySub.response.status, 200);
  assertSpec('userCurrentGetGPGKey', bySub);
  assert.equal(bySub.data, sub);
  assert.is(bySub.data!.primary_key_id, key.key_id);
  assert.equal([bySub.data!.emails, bySub.data!.subkeys], [[], []]);
});

test('404: another user’s key (the site admin included), an unknown id; 401; 403 without read:user', async () => {
  for (const as of [p.reader, p.admin]) {
    const r = await get(key.id, as.auth);
    assertEmpty404(r, as.username);
    assertSpec('userCurrentGetGPGKey', r);
  }
  assertEmpty404(await get(987654, p.writer.auth), 'unknown');
  const anon = await get(key.id);
  assert.is(anon.response.status, 401);
  assertSpec('userCurrentGetGPGKey', anon);
  const scoped = await get(key.id, await app.token(p.writer, ['read:repository']));
  assert.is(scoped.response.status, 403);
  assertSpec('userCurrentGetGPGKey', scoped);
});

test.run();
