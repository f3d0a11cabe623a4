// OpenSSH public keys as users paste them: parsed and fingerprinted with sshpk (SHA256, as `ssh-keygen
// -lf` prints it), kept as `<algorithm> <base64>` without the comment. ed25519, ECDSA and RSA of 2048 bits
// or more are accepted; a private key is refused with a message that says so. sshpk is loaded on first use.
import type sshpkTypes from 'sshpk';
import { Invalid } from '../errors.js';

export interface ParsedKey {
  /** `ssh-ed25519 AAAA…` */
  content: string;
  /** `SHA256:…` */
  fingerprint: string;
  algorithm: string;
  bits: number;
}

export async function parsePublicKey(text: string): Promise<ParsedKey> {
  const sshpk = (await import('sshpk')).default;
  const given = text.trim();
  if (/PRIVATE KEY/.test(given)) throw new Invalid('this is a private key: give its public key (the .pub file) instead');
  let key: sshpkTypes.Key;
  try {
    key = sshpk.parseKey(given, 'auto');
  } catch {
    throw new Invalid('the key is not an OpenSSH public key (e.g. `ssh-ed25519 AAAA… comment`)');
  }
  if (typeof (key as unknown as { toPublic?: unknown }).toPublic === 'function') throw new Invalid('this is a private key: give its public key (the .pub file) instead');
  if (key.type === 'rsa' && key.size < 2048) throw new Invalid(`RSA keys need 2048 bits or more; this one has ${key.size}`);
  if (!['ed25519', 'ecdsa', 'rsa'].includes(key.type)) throw new Invalid(`${key.type} keys are not accepted: use ed25519, ECDSA or RSA (2048 bits or more)`);
  const [algorithm, blob] = key.toString('ssh').split(' ');
  return { content: `${algorithm} ${blob}`, fingerprint: key.fingerprint('sha256').toString(), algorithm: algorithm!, bits: key.size };
}
