import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addGpgKey, detachedSignature, gpgPair, tokenOf } from '../../helpers/gpg.js';
import { assertEmpty404, people, type People } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;

const verify = (body: { key_id: string; armored_signature: string }, authorization?: string) => app.client(authorization).POST('/user/gpg_key_verify', { body });

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

test('200: a signature of the token by the key makes it and its subkeys verified (leading zeros of the id ignored)', async () => {
  const pair = await gpgPair(p.writer.email);
  const k = await addGpgKey(app, p.writer, pair);
  assert.is(k.verified, false);
  const sig = await detachedSignature(pair, await tokenOf(app, p.writer));
  const r = await verify({ key_id: `00${pair.keyId.toLowerCase()}`, armored_signature: sig }, p.writer.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('userVerifyGPGKey', r);
  assert.equal([r.data!.id, r.data!.verified, r.data!.subkeys[0]!.verified], [k.id, true, true]);
  const again = await app.client(p.writer.auth).GET('/user/gpg_keys/{id}', { params: { path: { id: k.id } } });
  assert.is(again.data!.verified, true);
});

test('422: a signature of something else, with the token to sign; 404: a key the caller does not have; 401', async () => {
  const pair = await gpgPair(p.reader.email);
  await addGpgKey(app, p.reader, pair);
  const token = await tokenOf(app, p.reader);
  const r = await verify({ key_id: pair.keyId, armored_signature: await detachedSignature(pair, 'something else') }, p.reader.auth);
  assert.is(r.response.status, 422);
  assertSpec('userVerifyGPGKey', r);
  assert.match(messageOf(r.error), token);
  const good = await detachedSignature(pair, token);
  const other = await verify({ key_id: pair.keyId, armored_signature: good }, p.writer.auth);
  assertEmpty404(other, 'another user');
  assertSpec('userVerifyGPGKey', other);
  assertEmpty404(await verify({ key_id: 'ABCDEF0123456789', armored_signature: good }, p.reader.auth), 'unknown id');
  const anon = await verify({ key_id: pair.keyId, armored_signature: good });
  assert.is(anon.response.status, 401);
});

test.run();
