import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addGpgKey, detachedSignature, gpgPair, tokenOf } from '../../helpers/gpg.js';
import { people, type People } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;

const post = (body: { armored_public_key: string; armored_signature?: string }, authorization?: string) => app.client(authorization).POST('/user/gpg_keys', { body });

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

test('201: a key naming the caller’s activated e-mail, with its subkey, ids, capabilities and dates', async () => {
  const pair = await gpgPair(p.writer.email);
  const r = await post({ armored_public_key: pair.publicKey }, p.writer.auth);
  assert.is(r.response.status, 201, JSON.stringify(r.error));
  assertSpec('userCurrentPostGPGKey', r);
  const k = r.data!;
  assert.equal(
    [k.key_id, k.primary_key_id, k.verified, k.can_sign, k.can_certify, k.can_encrypt_comms, k.emails, k.expires_at],
    [pair.keyId, '', false, true, true, false, [{ email: p.writer.email, verified: true }], '1970-01-01T00:00:00Z'],
  );
  assert.match(k.public_key, 'BEGIN PGP PUBLIC KEY BLOCK');
  assert.is(k.subkeys.length, 1);
  const sub = k.subkeys[0]!;
  assert.equal([sub.key_id, sub.primary_key_id, sub.can_encrypt_comms, sub.can_encrypt_storage, sub.can_sign, sub.emails, sub.subkeys], [pair.subkeyId, pair.keyId, true, true, false, [], []]);
  assert.ok(Math.abs(Date.parse(k.created_at) - Date.now()) < 120_000, k.created_at);
});

test('404 (empty): no e-mail of the key is the caller’s and no signature; 201 verified with a signature of the token', async () => {
  const pair = await gpgPair('someone-else@example.org');
  const r = await post({ armored_public_key: pair.publicKey }, p.reader.auth);
  assert.is(r.response.status, 404);
  assertSpec('userCurrentPostGPGKey', r);
  const signed = await post({ armored_public_key: pair.publicKey, armored_signature: await detachedSignature(pair, await tokenOf(app, p.reader)) }, p.reader.auth);
  assert.is(signed.response.status, 201, JSON.stringify(signed.error));
  assert.is(signed.data!.verified, true);
  assert.equal(signed.data!.emails, [{ email: 'someone-else@example.org', verified: false }]);
});

test('422: a signature of something else, or by another key; not a key; a private key; a key id already used', async () => {
  const pair = await gpgPair('x@example.org');
  const other = await gpgPair('y@example.org');
  const token = await tokenOf(app, p.outsider);
  for (const [label, sig] of [['other text', await detachedSignature(pair, 'not the token')], ['other key', await detachedSignature(other, token)], ['garbage', 'hello']] as const) {
    const r = await post({ armored_public_key: pair.publicKey, armored_signature: sig }, p.outsider.auth);
    assert.is(r.response.status, 422, label);
    assertSpec('userCurrentPostGPGKey', r);
    assert.match(messageOf(r.error), `Provide a valid signature for the token: ${token}`);
  }
  for (const [label, key, pattern] of [['garbage', 'hello', /not an armored OpenPGP public key/], ['private', pair.privateKey, /private key/]] as const) {
    const r = await post({ armored_public_key: key }, p.outsider.auth);
    assert.is(r.response.status, 422, label);
    assert.match(messageOf(r.error), pattern);
  }
  const mine = await gpgPair(p.outsider.email);
  await addGpgKey(app, p.outsider, mine);
  const again = await post({ armored_public_key: mine.publicKey }, p.outsider.auth);
  assert.is(again.response.status, 422);
  assert.is(messageOf(again.error), 'A key with the same id already exists');
  const elsewhere = await post({ armored_public_key: mine.publicKey, armored_signature: await detachedSignature(mine, await tokenOf(app, p.owner)) }, p.owner.auth);
  assert.is(elsewhere.response.status, 422, 'another user');
});

test('401: anonymous; 403: a token without write:user', async () => {
  const pair = await gpgPair(p.owner.email);
  const anon = await post({ armored_public_key: pair.publicKey });
  assert.is(anon.response.status, 401);
  assertSpec('userCurrentPostGPGKey', anon);
  const r = await post({ armored_public_key: pair.publicKey }, await app.token(p.owner, ['read:user']));
  assert.is(r.response.status, 403);
  assertSpec('userCurrentPostGPGKey', r);
});

test.run();
