import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { Signature } from '../git/commit.js';

/** How a user signs the commits and tags anvil writes for them: full name (or login) and e-mail (or the no-reply one). */
export function signatureOf(actor: UserRow, config: Config): Signature {
  return { name: actor.fullName || actor.name, email: actor.email || `${actor.lowerName}@${config.noReplyDomain}` };
}
