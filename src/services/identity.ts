import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { Signature } from '../git/commit.js';

/**
 * How a user signs the commits and tags anvil writes for them: full name (or login) and e-mail — the
 * no-reply address when the user hides theirs (as Gitea does), so it never leaks through git.
 */
export function signatureOf(actor: UserRow, config: Config): Signature {
  const hidden = actor.keepEmailPrivate || !actor.email;
  return { name: actor.fullName || actor.name, email: hidden ? `${actor.lowerName}@${config.noReplyDomain}` : actor.email };
}
