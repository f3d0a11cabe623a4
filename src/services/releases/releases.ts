// Releases: a tag with a title, notes and assets. Rules as Gitea's: drafts are seen by writers of releases
// only and have no tag until they are published; publishing creates a missing tag (recorded as a pushed
// and created tag) and records `publish_release` and a `release` webhook; deleting a release keeps its tag.
// `repositories.num_releases` counts the releases that are not drafts, moved by deltas in the changing
// transaction so concurrent changes add up.
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { attachments, releases, repositories, users, type AttachmentRow, type ReleaseRow, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { zeroIdLike } from '../../git/commit.js';
import { GitError } from '../../git/core.js';
import { countCommits } from '../../git/objects.js';
import { deleteRef, refNames, resolveCommit } from '../../git/refs.js';
import { createTag } from '../../git/tag.js';
import { canRead, canWrite } from '../../permissions/repo.js';
import { AttachmentStorage } from '../../storage/attachments.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Forbidden, Invalid, NotFound, RepoArchived, isUniqueViolation } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import type { DomainEvent } from '../events/types.js';
import type { BranchService } from '../git/branches.js';
import { signatureOf } from '../identity.js';
import { isValidRefName } from '../names.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

export interface ReleaseView {
  release: ReleaseRow;
  publisher: UserRow | undefined;
  assets: AttachmentRow[];
}

export interface CreateReleaseInput {
  tagName: string;
  target?: string;
  title?: string;
  note?: string;
  tagMessage?: string;
  isDraft?: boolean;
  isPrerelease?: boolean;
}

export interface EditReleaseInput {
  tagName?: string;
  target?: string;
  title?: string;
  note?: string;
  isDraft?: boolean;
  isPrerelease?: boolean;
}

type Page = { limit: number; offset: number };

/** A tag this change created in git, with the events that describe it. */
interface MadeTag {
  ref: string;
  id: string;
  events: DomainEvent[];
}

export const canSeeDrafts = (loaded: LoadedRepo) => canWrite(loaded.perm, 'repo.releases');

/** Gitea's reqRepoReader(releases): a disabled or unreadable unit is not there. */
export function requireReleaseReader(loaded: LoadedRepo): void {
  if (!canRead(loaded.perm, 'repo.releases')) throw new NotFound();
}

/** Gitea's reqRepoWriter(releases), then the archive state. */
export function requireReleaseWriter(loaded: LoadedRepo): void {
  requireReleaseReader(loaded);
  if (!canWrite(loaded.perm, 'repo.releases')) throw new Forbidden('user should have a permission to write to a repo');
  if (loaded.repo.isArchived) throw new RepoArchived();
}

export class ReleaseService {
  private readonly storage: AttachmentStorage;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly branches: BranchService,
  ) {
    this.storage = new AttachmentStorage(deps.config);
  }

  /** Publishers and assets of several releases: two queries whatever their number. */
  private async views(rows: ReleaseRow[], db: Db = this.deps.db): Promise<ReleaseView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [people, files] = await Promise.all([
      db.select().from(users).where(inArray(users.id, [...new Set(rows.map((r) => r.publisherId))])),
      db.select().from(attachments).where(inArray(attachments.releaseId, ids)).orderBy(asc(attachments.id)),
    ]);
    const byId = new Map(people.map((u) => [u.id, u]));
    return rows.map((release) => ({ release, publisher: byId.get(release.publisherId), assets: files.filter((a) => a.releaseId === release.id) }));
  }

  async list(loaded: LoadedRepo, filter: { draft?: boolean; prerelease?: boolean }, page: Page): Promise<{ rows: ReleaseView[]; total: number }> {
    requireReleaseReader(loaded);
    const conds: SQL[] = [eq(releases.repoId, loaded.repo.id)];
    if (!canSeeDrafts(loaded)) conds.push(eq(releases.isDraft, false));
    if (filter.draft !== undefined) conds.push(eq(releases.isDraft, filter.draft));
    if (filter.prerelease !== undefined) conds.push(eq(releases.isPrerelease, filter.prerelease));
    const where = and(...conds);
    const { db } = this.deps;
    const [rows, [total]] = await Promise.all([
      db.select().from(releases).where(where).orderBy(desc(releases.createdAt), desc(releases.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(releases).where(where),
    ]);
    return { rows: await this.views(rows), total: total?.n ?? 0 };
  }

  /** The release `id` of this repository as the caller may see it (a draft only for writers), or 404. */
  async row(loaded: LoadedRepo, id: number, db: Db = this.deps.db): Promise<ReleaseRow> {
    requireReleaseReader(loaded);
    const [row] = await db.select().from(releases).where(and(eq(releases.id, id), eq(releases.repoId, loaded.repo.id)));
    if (!row || (row.isDraft && !canSeeDrafts(loaded))) throw new NotFound();
    return row;
  }

  private async rowByTag(loaded: LoadedRepo, tag: string): Promise<ReleaseRow> {
    requireReleaseReader(loaded);
    const [row] = await this.deps.db.select().from(releases)
      .where(and(eq(releases.repoId, loaded.repo.id), eq(releases.lowerTagName, tag.toLowerCase())));
    if (!row || (row.isDraft && !canSeeDrafts(loaded))) throw new NotFound();
    return row;
  }

  async get(loaded: LoadedRepo, id: number): Promise<ReleaseView> {
    return (await this.views([await this.row(loaded, id)]))[0]!;
  }

  async byTag(loaded: LoadedRepo, tag: string): Promise<ReleaseView> {
    return (await this.views([await this.rowByTag(loaded, tag)]))[0]!;
  }

  async latest(loaded: LoadedRepo): Promise<ReleaseView> {
    requireReleaseReader(loaded);
    const [row] = await this.deps.db.select().from(releases)
      .where(and(eq(releases.repoId, loaded.repo.id), eq(releases.isDraft, false), eq(releases.isPrerelease, false)))
      .orderBy(desc(releases.createdAt), desc(releases.id)).limit(1);
    if (!row) throw new NotFound();
    return (await this.views([row]))[0]!;
  }

  /**
   * The commit `tagName` points at; when the tag is missing it is created at `target` (the default branch
   * when empty). Git only: the events of a created tag are recorded with the release's change.
   */
  private async tagFor(loaded: LoadedRepo, actor: UserRow, tagName: string, target: string, message: string | undefined): Promise<{ sha: string; made?: MadeTag }> {
    const dir = this.branches.dir(loaded);
    const ref = `refs/tags/${tagName}`;
    const refs = await refNames(dir);
    if (refs.has(ref)) {
      const sha = await resolveCommit(dir, ref);
      if (sha) return { sha };
    }
    const from = target || loaded.repo.defaultBranch;
    const sha = await resolveCommit(dir, from);
    if (!sha) throw new NotFound(`target "${from}" not found`);
    if ([...refs].some((r) => r.startsWith(`${ref}/`) || ref.startsWith(`${r}/`))) throw new Conflict(`tag name conflicts with an existing ref: ${tagName}`);
    // A release that makes its tag obeys the tag protection rules (Gitea's ErrProtectedTagName: 422).
    await this.branches.protections.tags.check(loaded.repo.id, actor, tagName, 'create');
    let id: string;
    try {
      id = await createTag(dir, tagName, sha, message || undefined, signatureOf(actor, this.deps.config));
    } catch (err) {
      if (err instanceof GitError) throw new Conflict(`tag ${tagName} already exists`);
      throw err;
    }
    const events = await this.branches.refEvents(loaded, actor.id, [{ ref, before: zeroIdLike(id), after: id }], [sha]);
    return { sha, made: { ref, id, events } };
  }

  /**
   * Runs the database part of a change in one transaction, with the events of a tag it created; when
   * the transaction fails, the tag goes again (git first, then the database, undone on failure).
   */
  private async write<T>(loaded: LoadedRepo, actor: UserRow, made: MadeTag | undefined, fn: (tx: Db) => Promise<T>): Promise<T> {
    try {
      if (!made) return await withTx(this.deps.db, fn);
      let out: T;
      await this.branches.recordRefEvents(loaded, actor.id, made.events, {}, async (tx) => {
        out = await fn(tx);
      });
      return out!;
    } catch (err) {
      if (made) await deleteRef(this.branches.dir(loaded), made.ref, made.id).catch(() => {});
      if (isUniqueViolation(err)) throw new Conflict('release tag already exists');
      throw err;
    }
  }

  private async bumpCount(tx: Db, repoId: number, delta: number): Promise<void> {
    if (delta === 0) return;
    await tx.update(repositories).set({ numReleases: sql`${repositories.numReleases} + ${delta}` }).where(eq(repositories.id, repoId));
  }

  private releaseEvent(loaded: LoadedRepo, actorId: number, release: ReleaseRow, action: 'published' | 'updated' | 'deleted'): DomainEvent {
    return {
      type: 'release', action, releaseId: release.id, ...inRepo(loaded.repo, actorId),
      activity: action === 'published' ? { opType: 'publish_release', refName: release.tagName, content: release.title } : undefined,
    };
  }

  private checkTagName(name: string): void {
    if (!isValidRefName(name)) throw new Invalid(`[tag_name]: invalid tag name "${name}"`);
  }

  async create(loaded: LoadedRepo, actor: UserRow, input: CreateReleaseInput): Promise<ReleaseView> {
    requireReleaseWriter(loaded);
    this.checkTagName(input.tagName);
    if (loaded.repo.isEmpty) throw new Invalid('repo is empty');
    const lower = input.tagName.toLowerCase();
    const [existing] = await this.deps.db.select({ id: releases.id }).from(releases)
      .where(and(eq(releases.repoId, loaded.repo.id), eq(releases.lowerTagName, lower)));
    if (existing) throw new Conflict(`release tag already exists [tag_name: ${input.tagName}]`);
    const isDraft = input.isDraft ?? false;
    const target = input.target || loaded.repo.defaultBranch;
    const tag = isDraft ? undefined : await this.tagFor(loaded, actor, input.tagName, target, input.tagMessage);
    const numCommits = tag ? await countCommits(this.branches.dir(loaded), tag.sha) : 0;
    const row = await this.write(loaded, actor, tag?.made, async (tx) => {
      const now = new Date();
      const [inserted] = await tx.insert(releases).values({
        repoId: loaded.repo.id, publisherId: actor.id, tagName: input.tagName, lowerTagName: lower, target,
        title: input.title ?? '', note: input.note ?? '', sha1: tag?.sha ?? '', numCommits,
        isDraft, isPrerelease: input.isPrerelease ?? false, createdAt: now, publishedAt: isDraft ? null : now,
      }).returning();
      if (!isDraft) {
        await this.bumpCount(tx, loaded.repo.id, 1);
        await recordEvent(this.deps, tx, this.releaseEvent(loaded, actor.id, inserted!, 'published'));
      }
      return inserted!;
    });
    return (await this.views([row]))[0]!;
  }

  async edit(loaded: LoadedRepo, actor: UserRow, id: number, input: EditReleaseInput): Promise<ReleaseView> {
    requireReleaseWriter(loaded);
    const before = await this.row(loaded, id);
    const tagName = input.tagName || before.tagName;
    if (tagName !== before.tagName) this.checkTagName(tagName);
    const target = input.target || before.target;
    const isDraft = input.isDraft ?? before.isDraft;
    const publishing = before.isDraft && !isDraft;
    // A published release (or one being published) has its tag: created when missing, as Gitea's createTag.
    const needsTag = !isDraft && (publishing || tagName !== before.tagName || !before.sha1);
    if (needsTag && loaded.repo.isEmpty) throw new Invalid('repo is empty');
    const tag = needsTag ? await this.tagFor(loaded, actor, tagName, target, undefined) : undefined;
    const numCommits = tag ? await countCommits(this.branches.dir(loaded), tag.sha) : before.numCommits;
    const row = await this.write(loaded, actor, tag?.made, async (tx) => {
      // The row as it is now, locked: the count moves by what this change does to it.
      const [current] = await tx.select().from(releases).where(eq(releases.id, before.id)).for('update');
      if (!current) throw new NotFound();
      const now = new Date();
      const [updated] = await tx.update(releases).set({
        tagName, lowerTagName: tagName.toLowerCase(), target,
        title: input.title || current.title, note: input.note || current.note,
        isDraft, isPrerelease: input.isPrerelease ?? current.isPrerelease,
        sha1: tag?.sha ?? current.sha1, numCommits,
        // Gitea stamps a release again when it is published or turned back into a draft.
        ...(current.isDraft !== isDraft ? { createdAt: now, publishedAt: isDraft ? null : now } : {}),
      }).where(eq(releases.id, current.id)).returning();
      await this.bumpCount(tx, loaded.repo.id, (current.isDraft ? 0 : -1) + (isDraft ? 0 : 1));
      if (!isDraft) await recordEvent(this.deps, tx, this.releaseEvent(loaded, actor.id, updated!, current.isDraft ? 'published' : 'updated'));
      return updated!;
    });
    return (await this.views([row]))[0]!;
  }

  private async remove(loaded: LoadedRepo, actor: UserRow, release: ReleaseRow): Promise<void> {
    const files = await withTx(this.deps.db, async (tx) => {
      const [current] = await tx.select().from(releases).where(eq(releases.id, release.id)).for('update');
      if (!current) throw new NotFound();
      // Recorded before the row goes: the payload shows the release as it was, assets included.
      if (!current.isDraft) await recordEvent(this.deps, tx, this.releaseEvent(loaded, actor.id, current, 'deleted'));
      const gone = await tx.delete(attachments).where(eq(attachments.releaseId, current.id)).returning({ uuid: attachments.uuid });
      await tx.delete(releases).where(eq(releases.id, current.id));
      await this.bumpCount(tx, loaded.repo.id, current.isDraft ? 0 : -1);
      return gone.map((a) => a.uuid);
    });
    for (const uuid of files) {
      await this.storage.remove(uuid).catch((err: Error) => this.deps.log.warn({ err: err.message, uuid }, 'release asset file not deleted'));
    }
  }

  async delete(loaded: LoadedRepo, actor: UserRow, id: number): Promise<void> {
    requireReleaseWriter(loaded);
    await this.remove(loaded, actor, await this.row(loaded, id));
  }

  async deleteByTag(loaded: LoadedRepo, actor: UserRow, tag: string): Promise<void> {
    requireReleaseWriter(loaded);
    await this.remove(loaded, actor, await this.rowByTag(loaded, tag));
  }
}
