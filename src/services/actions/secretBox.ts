// Encryption of Actions secrets at rest: AES-256-GCM under a key derived from SECRET_KEY (or the key
// generated into DATA_DIR), with a fresh 12-byte nonce per value and the secret's place (owner, repository,
// name) as associated data, so a stored value cannot be moved to another secret. A stored value names its
// key by a short id, so that after a rotation (SECRET_KEY_PREVIOUS) values under the old key still open
// and are re-encrypted. Pure but for the key: no value is ever logged.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface SecretKey {
  /** The first 8 hex characters of sha256 over the derived key: which key a stored value is under. */
  id: string;
  key: Buffer;
}

/** The AES key of a configured or generated key text (any length: hashed with a label to 32 bytes). */
export function deriveKey(text: string): SecretKey {
  const key = createHash('sha256').update('anvil actions secrets\0').update(text, 'utf8').digest();
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

export interface SecretPlace {
  ownerId: number;
  repoId: number;
  name: string;
}

const aad = (p: SecretPlace) => Buffer.from(`${p.ownerId}:${p.repoId}:${p.name}`, 'utf8');

export function seal(key: SecretKey, place: SecretPlace, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(aad(place));
  const ct = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `v1.${key.id}.${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
}

/** The key id a stored value is under, or undefined for a value anvil did not write. */
export function sealedWith(stored: string): string | undefined {
  const m = /^v1\.([0-9a-f]{8})\./.exec(stored);
  return m?.[1];
}

/** The value, or undefined when none of the keys opens it (wrong key, altered or moved value). */
export function open(keys: SecretKey[], place: SecretPlace, stored: string): string | undefined {
  const id = sealedWith(stored);
  const key = keys.find((k) => k.id === id);
  if (!key) return undefined;
  const raw = Buffer.from(stored.slice(12), 'base64');
  if (raw.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, raw.subarray(0, 12));
    decipher.setAAD(aad(place));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
