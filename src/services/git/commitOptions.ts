// What the API's file-changing operations (diff patch, contents) share about the commit they write: the
// identities, the dates, the message with its sign-off, and the target branch's checks.
import type { Config } from '../../config.js';
import type { UserRow } from '../../db/schema/index.js';
import type { Signature } from '../../git/commit.js';
import { signatureOf } from '../identity.js';
import { Forbidden, Invalid } from '../errors.js';
import { isValidNewBranchName, isValidRefName } from '../names.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import type { BranchService } from './branches.js';

export interface CommitOptions {
  message?: string;
  author?: { name?: string; email?: string };
  committer?: { name?: string; email?: string };
  dates?: { author?: string; committer?: string };
  signoff?: boolean;
}

/**
 * A name or e-mail as git will write it: git drops `<`, `>` and line breaks, and "crud" (blanks and
 * `.,:;"'\\`) at either end, and refuses an identity left empty ("empty ident name not allowed").
 * What would be empty counts as not given, so the caller's own identity stands in.
 */
function cleanIdent(value: string | undefined): string {
  const crud = /^[\x00-\x20.,:;"'\\]+|[\x00-\x20.,:;"'\\]+$/g;
  return (value ?? '').replace(/[<>\r\n]/g, '').replace(crud, '');
}

function identity(actor: UserRow, config: Config, given: { name?: string; email?: string } | undefined, fallback?: { name?: string; email?: string }): Signature {
  const clean = (p: { name?: string; email?: string } | undefined) => ({ name: cleanIdent(p?.name), email: cleanIdent(p?.email) });
  const [a, b] = [clean(given), clean(fallback)];
  const g = a.name || a.email ? a : b;
  if (g.name || g.email) return { name: g.name || cleanIdent(actor.fullName) || actor.name, email: g.email || actor.email };
  return signatureOf(actor, config);
}

/** Author and committer (each defaults to the other, then to the caller: Gitea's rule) with their dates. */
export function commitPeople(actor: UserRow, config: Config, input: CommitOptions): { author: Signature; committer: Signature } {
  const author = identity(actor, config, input.author, input.committer);
  const committer = identity(actor, config, input.committer, input.author);
  if (input.dates?.author) author.date = new Date(input.dates.author);
  if (input.dates?.committer) committer.date = new Date(input.dates.committer);
  // git counts seconds from 1970 and cannot record an earlier date.
  for (const [field, who] of [['author', author], ['committer', committer]] as const) {
    if (who.date && who.date.getTime() < 0) throw new Invalid(`[dates.${field}]: must not be before 1970-01-01`);
  }
  return { author, committer };
}

/** The message (or `fallback` when none is given), with the committer's Signed-off-by when asked, ending in a newline. */
export function commitMessage(input: CommitOptions, fallback: string, committer: Signature): string {
  let message = input.message?.trim() ? input.message : fallback;
  if (input.signoff) message = `${message.replace(/\n+$/, '')}\n\nSigned-off-by: ${committer.name} <${committer.email}>`;
  return message.endsWith('\n') ? message : `${message}\n`;
}

/** Both branch names valid, and the caller may push to the target (a protected branch: Gitea's 403). */
export async function checkTargetBranch(branches: BranchService, loaded: LoadedRepo, actor: UserRow, base: string, target: string): Promise<void> {
  for (const [field, name] of [['branch', base], ['new_branch', target]] as const) {
    if (!isValidRefName(name)) throw new Invalid(`[${field}]: invalid branch name "${name}"`);
  }
  if (target !== base && !isValidNewBranchName(target)) throw new Invalid(`[new_branch]: invalid branch name "${target}"`);
  const rule = await branches.protections.ruleFor(loaded.repo.id, target);
  if (rule && !(await branches.protections.canPush(loaded, rule, actor))) throw new Forbidden(`branch protected [name: ${target}]`);
}
