// SSH signatures of git objects (OpenSSH's SSHSIG format, what `ssh-keygen -Y sign -n git` makes and
// `git verify-commit` with gpg.format=ssh checks), in-process with node:crypto, for ed25519 keys: an
// unencrypted OpenSSH private key file is read, signatures are made and checked against its public key.
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

const magic = Buffer.from('SSHSIG');
const keyType = 'ssh-ed25519';

/** An SSH wire-format string: its length (uint32, big-endian), then its bytes. */
function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(bytes.length);
  return Buffer.concat([len, bytes]);
}

class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  uint32(): number {
    if (this.at + 4 > this.buf.length) throw new Error('truncated');
    const v = this.buf.readUInt32BE(this.at);
    this.at += 4;
    return v;
  }
  string(): Buffer {
    const len = this.uint32();
    if (this.at + len > this.buf.length) throw new Error('truncated');
    const v = this.buf.subarray(this.at, this.at + len);
    this.at += len;
    return v;
  }
}

export interface SshSigningKey {
  /** The public key blob (`string "ssh-ed25519", string key`). */
  publicBlob: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const b64url = (b: Buffer) => b.toString('base64url');

/** Reads an OpenSSH private key file's text; throws an Error saying why it is not one anvil can sign with. */
export function readSshPrivateKey(text: string): SshSigningKey {
  const m = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]*?)-----END OPENSSH PRIVATE KEY-----/.exec(text);
  if (!m) throw new Error('not an OpenSSH private key (-----BEGIN OPENSSH PRIVATE KEY-----)');
  const buf = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
  const head = Buffer.from('openssh-key-v1\0');
  if (!buf.subarray(0, head.length).equals(head)) throw new Error('not an openssh-key-v1 private key');
  const r = new Reader(buf.subarray(head.length));
  const cipher = r.string().toString();
  r.string(); // kdf name
  r.string(); // kdf options
  if (cipher !== 'none') throw new Error('the OpenSSH private key is encrypted; give an unencrypted one (ssh-keygen -p -N "")');
  if (r.uint32() !== 1) throw new Error('the OpenSSH key file must hold exactly one key');
  const publicBlob = r.string();
  const priv = new Reader(r.string());
  if (priv.uint32() !== priv.uint32()) throw new Error('corrupt OpenSSH private key');
  const type = priv.string().toString();
  if (type !== keyType) throw new Error(`only ed25519 SSH signing keys are supported, this one is ${type}`);
  const pub = priv.string();
  const secret = priv.string();
  if (pub.length !== 32 || secret.length !== 64) throw new Error('corrupt ed25519 key');
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: b64url(secret.subarray(0, 32)), x: b64url(pub) }, format: 'jwk' });
  const publicKey = createPublicKey(privateKey);
  return { publicBlob, privateKey, publicKey };
}

/** The `ssh-ed25519 AAAA…` line of the key, as in a `.pub` file or an allowed-signers file. */
export function sshPublicKeyLine(key: SshSigningKey): string {
  return `${keyType} ${key.publicBlob.toString('base64')}`;
}

/** OpenSSH's fingerprint of the key: `SHA256:` and the unpadded base64 of the blob's SHA-256. */
export function sshFingerprint(key: SshSigningKey): string {
  return `SHA256:${createHash('sha256').update(key.publicBlob).digest('base64').replace(/=+$/, '')}`;
}

/** What an SSHSIG signature signs: the magic, namespace, reserved, hash algorithm and the message's hash. */
function signedData(namespace: string, hashAlg: string, message: Buffer): Buffer {
  const hash = createHash(hashAlg).update(message).digest();
  return Buffer.concat([magic, sshString(namespace), sshString(''), sshString(hashAlg), sshString(hash)]);
}

/** The armored SSHSIG signature of `message` in `namespace` (git signs with namespace `git`, hash sha512). */
export function sshSign(key: SshSigningKey, message: Buffer, namespace = 'git'): string {
  const sig = sign(null, signedData(namespace, 'sha512', message), key.privateKey);
  const version = Buffer.alloc(4);
  version.writeUInt32BE(1);
  const blob = Buffer.concat([
    magic, version, sshString(key.publicBlob), sshString(namespace), sshString(''), sshString('sha512'),
    sshString(Buffer.concat([sshString(keyType), sshString(sig)])),
  ]);
  const lines = blob.toString('base64').match(/.{1,70}/g) ?? [];
  return `-----BEGIN SSH SIGNATURE-----\n${lines.join('\n')}\n-----END SSH SIGNATURE-----\n`;
}

/**
 * Whether `armored` is a valid SSHSIG signature of `message` in `namespace` by `key`; undefined when it is
 * not by this key at all (another key, or not readable).
 */
export function sshVerify(key: SshSigningKey, armored: string, message: Buffer, namespace = 'git'): boolean | undefined {
  const m = /-----BEGIN SSH SIGNATURE-----([\s\S]*?)-----END SSH SIGNATURE-----/.exec(armored);
  if (!m) return undefined;
  try {
    const buf = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
    if (!buf.subarray(0, 6).equals(magic)) return undefined;
    const r = new Reader(buf.subarray(6));
    if (r.uint32() !== 1) return undefined;
    if (!r.string().equals(key.publicBlob)) return undefined;
    const ns = r.string().toString();
    r.string(); // reserved
    const hashAlg = r.string().toString();
    const sigBlob = new Reader(r.string());
    if (sigBlob.string().toString() !== keyType) return false;
    const sig = sigBlob.string();
    if (ns !== namespace || (hashAlg !== 'sha512' && hashAlg !== 'sha256')) return false;
    return verify(null, signedData(namespace, hashAlg, message), key.publicKey, sig);
  } catch {
    return undefined;
  }
}
