// Tags: reading annotated tag objects, creating lightweight or annotated tags, listing.
import { and, eq } from 'drizzle-orm';
import { releases, type UserRow } from '../../db/schema/index.js';
import { GitError } from '../../git/core.js';
import { zeroIdLike } from '../../git/commit.js';
import { readCommit, readTag, type TagData } from '../../git/objects.js';
import { allRefNames, deleteRef, refTarget, resolveCommit } from '../../git/refs.js';
import { createTag, listTags, tagTip, type TagTip } from '../../git/tag.js';
import { canRead } from '../../permissions/repo.js';
import type { BranchService } from './branches.js';
import { requireCodeWriter } from './branches.js';
import type { ServiceDeps } from '../context.js';
import { signatureOf } from '../identity.js';
import { BadRequest, Conflict, Invalid, NotFound, RepoArchived } from '../errors.js';
import { isValidRefName } from '../names.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

export class TagService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly branches: BranchService,
  ) {}

  private requireReader(loaded: LoadedRepo): void {
    if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
  }

  /** Gitea answers 400 for anything that is not an annotated tag object, unknown ids included. */
  async annotated(loaded: LoadedRepo, sha: string): Promise<TagData> {
    this.requireReader(loaded);
    if (!sha) throw new BadRequest('SHA not provided');
    // Only a full object id, as Gitea: anything shorter could also resolve as a ref name (a tag called `cafe`).
    if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(sha) || loaded.repo.isEmpty) throw new BadRequest(`"${sha}" is not an annotated tag`);
    const full = await refTarget(this.branches.dir(loaded), `${sha.toLowerCase()}^{object}`);
    const tag = full ? await readTag(this.branches.dir(loaded), full) : undefined;
    if (!tag) throw new BadRequest(`"${sha}" is not an annotated tag`);
    return tag;
  }

  async create(loaded: LoadedRepo, actor: UserRow, input: { name: string; message?: string; target?: string }): Promise<TagTip> {
    requireCodeWriter(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (!isValidRefName(input.name)) throw new Invalid(`[tag_name]: invalid tag name "${input.name}"`);
    if (loaded.repo.isEmpty) throw new NotFound('Git Repository is empty.');
    const dir = this.branches.dir(loaded);
    const target = await resolveCommit(dir, input.target || loaded.repo.defaultBranch);
    if (!target) throw new NotFound(`target does not exist [${input.target}]`);
    const refs = await allRefNames(dir);
    const wanted = `refs/tags/${input.name}`;
    if (refs.includes(wanted)) throw new Conflict(`tag ${input.name} already exists`);
    // A release (a draft has no tag yet) claims its tag name, as in Gitea.
    const [claimed] = await this.deps.db.select({ id: releases.id }).from(releases)
      .where(and(eq(releases.repoId, loaded.repo.id), eq(releases.lowerTagName, input.name.toLowerCase())));
    if (claimed) throw new Conflict(`tag ${input.name} already exists`);
    if (refs.some((r) => r.startsWith(`${wanted}/`) || wanted.startsWith(`${r}/`))) throw new Conflict(`tag name conflicts with ${input.name}`);
    await this.branches.protections.tags.check(loaded.repo.id, actor, input.name, 'create');
    const tagger = signatureOf(actor, this.deps.config);
    const message = input.message?.trim() ? input.message : undefined;
    let id: string;
    try {
      id = await createTag(dir, input.name, target, message, tagger);
    } catch (err) {
      if (err instanceof GitError) throw new Conflict(`tag ${input.name} already exists`);
      throw err;
    }
    const move = { ref: wanted, before: zeroIdLike(id), after: id };
    await this.branches.recordOrUndo(loaded, [move], () => this.branches.refsChanged(loaded, actor.id, [move], [target]));
    // Answer what the list will show: a lightweight tag carries its commit's message and committer date,
    // an annotated one its own message and the tagger date git stored.
    const stored = message ? (await readTag(dir, id))! : await readCommit(dir, target);
    const date = 'tagger' in stored ? stored.tagger.date : stored.committer.date;
    return { name: input.name, id, commit: target, message: stored.message, date };
  }

  /** One tag by name, as the list shows it. */
  async get(loaded: LoadedRepo, name: string): Promise<TagTip> {
    this.requireReader(loaded);
    if (loaded.repo.isEmpty || !isValidRefName(name)) throw new NotFound();
    const tip = await tagTip(this.branches.dir(loaded), name);
    if (!tip) throw new NotFound();
    return tip;
  }

  /**
   * Deletes a tag no published release is attached to (409, as Gitea: delete the release first), if no
   * tag protection rule keeps the caller from it (422); a draft's tag name is only claimed, not attached.
   */
  async delete(loaded: LoadedRepo, actor: UserRow, name: string): Promise<void> {
    requireCodeWriter(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (loaded.repo.isEmpty || !isValidRefName(name)) throw new NotFound();
    const dir = this.branches.dir(loaded);
    const ref = `refs/tags/${name}`;
    const id = await refTarget(dir, ref);
    if (!id) throw new NotFound();
    const [attached] = await this.deps.db.select({ id: releases.id }).from(releases)
      .where(and(eq(releases.repoId, loaded.repo.id), eq(releases.tagName, name), eq(releases.isDraft, false)));
    if (attached) throw new Conflict('a tag attached to a release cannot be deleted directly');
    await this.branches.protections.tags.check(loaded.repo.id, actor, name, 'delete');
    try {
      await deleteRef(dir, ref, id);
    } catch (err) {
      // Moved or deleted by someone else since it was read.
      if (err instanceof GitError) throw new Conflict('the tag changed while it was being deleted');
      throw err;
    }
    await this.branches.refsChanged(loaded, actor.id, [{ ref, before: id, after: zeroIdLike(id) }], []);
  }

  async list(loaded: LoadedRepo, page: { limit: number; offset: number }): Promise<{ rows: TagTip[]; total: number }> {
    this.requireReader(loaded);
    if (loaded.repo.isEmpty) return { rows: [], total: 0 };
    const all = await listTags(this.branches.dir(loaded));
    return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }
}
