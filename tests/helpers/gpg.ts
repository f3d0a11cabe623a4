// GPG keys for the key tests, made with openpgp (ed25519 and curve25519: a signing primary key and an encryption
// subkey), and detached signatures of the verification token.
import * as openpgp from 'openpgp';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';
import type { Actor } from './repos.js';

export type GPGKey = components['schemas']['GPGKey'];

export interface GpgPair {
  publicKey: string;
  privateKey: string;
  /** 16 upper-case hex digits. */
  keyId: string;
  subkeyId: string;
}

export async function gpgPair(email: string, name = 'Test User'): Promise<GpgPair> {
  const { publicKey, privateKey } = await openpgp.generateKey({ type: 'ecc', curve: 'curve25519Legacy', userIDs: [{ name, email }], format: 'armored' });
  const key = await openpgp.readKey({ armoredKey: publicKey });
  return { publicKey, privateKey, keyId: key.getKeyID().toHex().toUpperCase(), subkeyId: key.subkeys[0]!.getKeyID().toHex().toUpperCase() };
}

/** An armored detached signature of `text` by the pair's key. */
export async function detachedSignature(pair: GpgPair, text: string): Promise<string> {
  const signingKeys = await openpgp.readPrivateKey({ armoredKey: pair.privateKey });
  return (await openpgp.sign({ message: await openpgp.createMessage({ text }), signingKeys, detached: true })) as string;
}

export async function tokenOf(app: TestApp, as: Actor): Promise<string> {
  const r = await fetch(`${app.url}/api/v1/user/gpg_key_token`, { headers: { Authorization: as.auth } });
  assert.is(r.status, 200);
  return r.text();
}

export async function addGpgKey(app: TestApp, as: Actor, pair: GpgPair, signature?: string): Promise<GPGKey> {
  const r = await app.client(as.auth).POST('/user/gpg_keys', { body: { armored_public_key: pair.publicKey, ...(signature ? { armored_signature: signature } : {}) } });
  assert.is(r.response.status, 201, `POST /user/gpg_keys: ${JSON.stringify(r.error)}`);
  return r.data!;
}
