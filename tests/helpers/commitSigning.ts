// The server's signing key in tests: a key made for the test (never one checked in) written to a temp
// file for SIGNING_KEY, and real `git verify-commit` of the commits anvil writes with it (a temporary
// GNUPGHOME holding the public key for OpenPGP; gpg.ssh.allowedSignersFile for SSH).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as openpgp from 'openpgp';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';
import { pathOf, type Repository } from './repos.js';

export interface TestSigningKey {
  format: 'openpgp' | 'ssh';
  /** The private key file, for SIGNING_KEY. */
  file: string;
  /** What /signing-key.gpg or /signing-key.pub should answer (the SSH line without its comment). */
  publicKey: string;
  name: string;
  email: string;
  /** Where git finds the public key: a GNUPGHOME with it imported, or an allowed-signers file. */
  trust: string;
}

export async function openpgpSigningKey(name = 'anvil signer', email = 'signer@anvil.test'): Promise<TestSigningKey> {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-sign-'));
  const { privateKey, publicKey } = await openpgp.generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name, email }], format: 'armored' });
  const file = join(dir, 'signing.asc');
  writeFileSync(file, privateKey, { mode: 0o600 });
  const home = join(dir, 'gnupg');
  execFileSync('mkdir', ['-m', '700', home]);
  writeFileSync(join(dir, 'public.asc'), publicKey);
  execFileSync('gpg', ['--batch', '--quiet', '--import', join(dir, 'public.asc')], { env: { ...process.env, GNUPGHOME: home }, stdio: 'pipe' });
  return { format: 'openpgp', file, publicKey, name, email, trust: home };
}

export function sshSigningKey(name = 'anvil ssh signer', email = 'ssh-signer@anvil.test'): TestSigningKey {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-sign-'));
  const file = join(dir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'test', '-f', file], { stdio: 'pipe' });
  const line = readFileSync(`${file}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
  const trust = join(dir, 'allowed_signers');
  writeFileSync(trust, `${email} ${line}\n`);
  return { format: 'ssh', file, publicKey: `${line}\n`, name, email, trust };
}

/** The app's environment for `key`, every kind of commit signed unless `rules` says otherwise. */
export function signingEnv(key: TestSigningKey, rules: Partial<Record<'SIGNING_INITIAL_COMMIT' | 'SIGNING_CRUD_ACTIONS' | 'SIGNING_WIKI' | 'SIGNING_MERGES', string>> = {}): Record<string, string> {
  return {
    SIGNING_KEY: key.file, SIGNING_NAME: key.name, SIGNING_EMAIL: key.email,
    SIGNING_INITIAL_COMMIT: 'always', SIGNING_CRUD_ACTIONS: 'always', SIGNING_WIKI: 'always', SIGNING_MERGES: 'always',
    ...rules,
  };
}

/** `git verify-commit` in the bare repository `dir`: its exit status and what it printed. */
export function verifyCommit(dir: string, sha: string, key: TestSigningKey): { ok: boolean; output: string } {
  const config = key.format === 'ssh' ? ['-c', 'gpg.format=ssh', '-c', `gpg.ssh.allowedSignersFile=${key.trust}`] : [];
  const r = spawnSync('git', [...config, 'verify-commit', '--raw', sha], {
    cwd: dir,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GNUPGHOME: key.format === 'openpgp' ? key.trust : '/nonexistent', LC_ALL: 'C' },
    encoding: 'utf8',
  });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/** The commit's raw object (to see whether it carries a signature at all). */
export function rawCommit(dir: string, sha: string): string {
  return execFileSync('git', ['cat-file', 'commit', sha], { cwd: dir, encoding: 'utf8' });
}

export type Verification = components['schemas']['PayloadCommitVerification'];

/** What anvil's commit API reports about the commit's signature. */
export async function apiVerification(app: TestApp, repo: Repository, sha: string, auth?: string): Promise<Verification> {
  const res = await app.client(auth).GET('/repos/{owner}/{repo}/git/commits/{sha}', { params: { path: { ...pathOf(repo), sha } } });
  assert.is(res.response.status, 200, `GET git/commits/${sha}: ${JSON.stringify(res.error)}`);
  return res.data!.commit!.verification!;
}
