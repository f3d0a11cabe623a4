// Who is calling, as the API's authentication found it (api/auth.ts): below the presenters and the
// pages that judge what the caller may see by it.
import type { UserRow } from '../db/schema/index.js';

export interface Auth {
  /** The user the request acts as (after Sudo); null for anonymous callers. */
  actor: UserRow | null;
  /** How the caller proved who they are. */
  method: 'none' | 'password' | 'token';
  /** A token's scopes; undefined for password sign-in, which may do anything its user may. */
  scopes?: string[];
  /** The signed-in user before Sudo. */
  signedIn: UserRow | null;
}

export const anonymous: Auth = { actor: null, method: 'none', signedIn: null };
