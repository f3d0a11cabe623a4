// SSH key pairs for the key tests, made with node:crypto and written as OpenSSH public keys (sshpk), and
// the operations that add them.
import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';
import type { Actor } from './repos.js';
import type { Repo } from './issues.js';

export type PublicKey = components['schemas']['PublicKey'];
export type DeployKey = components['schemas']['DeployKey'];

export interface KeyPair {
  /** `ssh-ed25519 AAAA… comment` */
  public: string;
  /** PKCS#8 PEM */
  private: string;
  fingerprint: string;
}

export function keyPair(kind: 'ed25519' | 'rsa' | 'ecdsa' = 'ed25519', opts: { bits?: number; comment?: string } = {}): KeyPair {
  const pair =
    kind === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: opts.bits ?? 2048 })
      : kind === 'ecdsa'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  const key = sshpk.parseKey(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'pem');
  key.comment = opts.comment ?? 'someone@laptop';
  return {
    public: key.toString('ssh'),
    private: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    fingerprint: key.fingerprint('sha256').toString(),
  };
}

/** The key line without its comment, as anvil keeps it. */
export const withoutComment = (line: string) => line.split(' ').slice(0, 2).join(' ');

export async function addUserKey(app: TestApp, as: Actor, key = keyPair(), title = 'laptop'): Promise<PublicKey> {
  const r = await app.client(as.auth).POST('/user/keys', { body: { title, key: key.public } });
  assert.is(r.response.status, 201, `POST /user/keys: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function addDeployKey(app: TestApp, repo: Repo, as: Actor, key = keyPair(), body: { title?: string; read_only?: boolean } = {}): Promise<DeployKey> {
  const r = await app.client(as.auth).POST('/repos/{owner}/{repo}/keys', { params: { path: repo.path }, body: { title: 'ci', key: key.public, ...body } });
  assert.is(r.response.status, 201, `POST deploy key: ${JSON.stringify(r.error)}`);
  return r.data!;
}
