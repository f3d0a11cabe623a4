// Applies a unified diff to a branch without a work tree. Concurrent patches to one branch are
// serialised by the ref's compare-and-swap: a loser re-applies on the new tip, so no commit is lost.
import { commitPatch, PatchDoesNotApply } from '../../git/apply.js';
import { GitError } from '../../git/core.js';
import { zeroIdLike, type Signature } from '../../git/commit.js';
import { readCommit, type CommitData } from '../../git/objects.js';
import { createRef, moveRef, refTarget } from '../../git/refs.js';
import type { UserRow } from '../../db/schema/index.js';
import type { BranchService } from './branches.js';
import { requireCodeWriter } from './branches.js';
import type { ServiceDeps } from '../context.js';
import { signatureOf } from '../identity.js';
import { Conflict, Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import { withKeyLock } from '../locks.js';
import { isValidRefName } from '../names.js';
import type { LoadedRepo } from '../repos/repos.js';
import type { DomainEvent } from '../events/types.js';

export interface DiffPatchInput {
  content: string;
  branch?: string;
  newBranch?: string;
  forcePush?: boolean;
  message?: string;
  author?: { name?: string; email?: string };
  committer?: { name?: string; email?: string };
  dates?: { author?: string; committer?: string };
  signoff?: boolean;
}

const attempts = 8;

export class DiffPatchService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly branches: BranchService,
  ) {}

  private identity(actor: UserRow, given: { name?: string; email?: string } | undefined, fallback?: { name?: string; email?: string }): Signature {
    const g = given?.name || given?.email ? given : fallback;
    if (g && (g.name || g.email)) return { name: g.name || actor.fullName || actor.name, email: g.email || actor.email };
    return signatureOf(actor, this.deps.config);
  }

  async apply(loaded: LoadedRepo, actor: UserRow, input: DiffPatchInput): Promise<CommitData> {
    const { repo } = loaded;
    if (repo.isArchived || repo.isMirror) throw new RepoArchived('repo is not allowed to edit');
    requireCodeWriter(loaded);
    const base = input.branch || repo.defaultBranch;
    const target = input.newBranch || base;
    for (const [field, name] of [['branch', base], ['new_branch', target]] as const) {
      if (!isValidRefName(name)) throw new Invalid(`[${field}]: invalid branch name "${name}"`);
    }
    // A protected target branch takes patches from those who may push to it (Gitea: 403).
    const rule = await this.branches.protections.ruleFor(repo.id, target);
    if (rule && !(await this.branches.protections.canPush(loaded, rule, actor))) throw new Forbidden(`branch protected [name: ${target}]`);
    const dir = this.branches.dir(loaded);
    const baseTip = await refTarget(dir, `refs/heads/${base}`);
    if (!baseTip) throw new NotFound(`branch does not exist [name: ${base}]`);
    const newBranch = target !== base;
    if (newBranch && !input.forcePush && (await refTarget(dir, `refs/heads/${target}`))) {
      throw new Invalid(`branch already exists [name: ${target}]`);
    }
    // Both identities default to each other, then to the caller (Gitea's rule).
    const author = this.identity(actor, input.author, input.committer);
    const committer = this.identity(actor, input.committer, input.author);
    if (input.dates?.author) author.date = new Date(input.dates.author);
    if (input.dates?.committer) committer.date = new Date(input.dates.committer);
    // git counts seconds from 1970 and cannot record an earlier date.
    for (const [field, who] of [['author', author], ['committer', committer]] as const) {
      if (who.date && who.date.getTime() < 0) throw new Invalid(`[dates.${field}]: must not be before 1970-01-01`);
    }
    let message = input.message?.trim() ? input.message : 'apply-patch';
    if (input.signoff) message = `${message.replace(/\n+$/, '')}\n\nSigned-off-by: ${committer.name} <${committer.email}>`;
    if (!message.endsWith('\n')) message += '\n';

    return withKeyLock(`${dir}\0${target}`, () => this.commitWithRetries(dir, { base, baseTip, target, newBranch, input, message, author, committer, loaded, actor }));
  }

  private async commitWithRetries(
    dir: string,
    a: { base: string; baseTip: string; target: string; newBranch: boolean; input: DiffPatchInput; message: string; author: Signature; committer: Signature; loaded: LoadedRepo; actor: UserRow },
  ): Promise<CommitData> {
    const { base, baseTip, target, newBranch, input, message, author, committer, loaded, actor } = a;
    for (let attempt = 0; attempt < attempts; attempt++) {
      // A patch onto the same branch builds on its current tip; a new branch starts from the base.
      // (On the first attempt the tip read a moment ago; a retry reads it again.)
      const parent = newBranch || attempt === 0 ? baseTip : ((await refTarget(dir, `refs/heads/${base}`)) ?? baseTip);
      let id: string;
      try {
        id = await commitPatch(dir, { parent, patch: input.content, message, author, committer });
      } catch (err) {
        if (err instanceof PatchDoesNotApply) throw new Invalid(`patch does not apply: ${err.message}`);
        throw err;
      }
      // The commits the change brings are read from git while the ref moves (both are git processes).
      let events: Promise<DomainEvent[]> | undefined;
      const eventsFrom = (before: string) => {
        events = this.branches.refEvents(loaded, actor.id, [{ ref: `refs/heads/${target}`, before, after: id }], [baseTip]);
        events.catch(() => undefined); // awaited below when the ref moved; dropped when it did not
      };
      try {
        if (newBranch) {
          const existing = await refTarget(dir, `refs/heads/${target}`);
          eventsFrom(existing ?? zeroIdLike(id));
          if (existing && input.forcePush) await moveRef(dir, `refs/heads/${target}`, id, existing);
          else await createRef(dir, `refs/heads/${target}`, id);
        } else {
          eventsFrom(parent);
          await moveRef(dir, `refs/heads/${target}`, id, parent);
        }
      } catch (err) {
        if (!(err instanceof GitError)) throw err;
        if (newBranch && !input.forcePush) throw new Invalid(`branch already exists [name: ${target}]`);
        continue; // the branch moved under us: rebuild on its new tip
      }
      await this.branches.recordRefEvents(loaded, actor.id, await events!);
      return readCommit(dir, id);
    }
    throw new Conflict('the branch kept changing while the patch was applied; try again');
  }
}
