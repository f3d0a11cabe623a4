import type { components } from '../../generated/openapi.js';
import type { GpgKeyRow } from '../db/schema/index.js';
import type { GpgKeyView } from '../services/keys/gpgKeys.js';
import { iso, never } from './time.js';

type Schemas = components['schemas'];

function part(k: GpgKeyRow): Omit<Schemas['GPGKey'], 'emails' | 'subkeys' | 'public_key'> {
  return {
    id: k.id,
    key_id: k.keyId,
    primary_key_id: k.primaryKeyId,
    can_sign: k.canSign,
    can_encrypt_comms: k.canEncryptComms,
    can_encrypt_storage: k.canEncryptStorage,
    can_certify: k.canCertify,
    verified: k.verified,
    created_at: iso(k.createdAt),
    // Gitea prints a key that never expires with the Unix epoch.
    expires_at: k.expiresAt ? iso(k.expiresAt) : never,
  };
}

export function toGpgKey(v: GpgKeyView): Schemas['GPGKey'] {
  return {
    ...part(v.key),
    public_key: v.key.content,
    emails: v.emails,
    subkeys: v.subkeys.map((s) => ({ ...part(s), public_key: '', emails: [], subkeys: [] })),
  };
}
