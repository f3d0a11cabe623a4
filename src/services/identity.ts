import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { Signature } from '../git/commit.js';

/**
 * How a user signs the commits and tags anvil writes for them: full name (or login) and e-mail — the
 * no-reply address when the user hides theirs (as Gitea does), so it never leaks through git. A full name
 * git would refuse (nothing left once it drops whitespace, `.,:;"'\\` and angle brackets: "name consists
 * only of disallowed characters") signs with the login instead, rather than failing the write.
 */
export function signatureOf(actor: UserRow, config: Config): Signature {
  const hidden = actor.keepEmailPrivate || !actor.email;
  const usable = /[^\x00-\x20.,:;<>"'\\]/.test(actor.fullName ?? '');
  return { name: usable ? actor.fullName : actor.name, email: hidden ? `${actor.lowerName}@${config.noReplyDomain}` : actor.email };
}
