// Release assets: attachments whose release_id is set. Uploads, limits, storage and downloads are the
// issue attachments' (services/issues/attachments.ts); the rules here are the release's: readers of
// releases see the assets of what they may see, writers of releases change them.
import { and, asc, count, eq } from 'drizzle-orm';
import { attachments, type AttachmentRow, type UserRow } from '../../db/schema/index.js';
import type { AttachmentService, TypeRule, UploadInput } from '../issues/attachments.js';
import { sanitizeAttachmentName } from '../issues/attachmentTypes.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Invalid, NotFound } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { requireReleaseWriter, type ReleaseService } from './releases.js';

type Page = { limit: number; offset: number };

export class ReleaseAssetService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly releases: ReleaseService,
    private readonly attachments: AttachmentService,
  ) {}

  async list(loaded: LoadedRepo, releaseId: number, page: Page): Promise<{ rows: AttachmentRow[]; total: number }> {
    const release = await this.releases.row(loaded, releaseId);
    const where = eq(attachments.releaseId, release.id);
    const { db } = this.deps;
    const [rows, [total]] = await Promise.all([
      db.select().from(attachments).where(where).orderBy(asc(attachments.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(attachments).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** Release assets follow `[repository.release] ALLOWED_TYPES` (empty: any type), not the attachments' list; Gitea answers 400. */
  private get types(): TypeRule {
    return { allowed: this.deps.config.release.allowedTypes, refuse: (m) => new BadRequest(m) };
  }

  async create(loaded: LoadedRepo, releaseId: number, actor: UserRow, input: UploadInput): Promise<AttachmentRow> {
    this.attachments.ensureEnabled();
    requireReleaseWriter(loaded);
    const release = await this.releases.row(loaded, releaseId);
    return this.attachments.store(input, { repoId: loaded.repo.id, releaseId: release.id }, actor, this.types);
  }

  async get(loaded: LoadedRepo, releaseId: number, attachmentId: number): Promise<AttachmentRow> {
    const release = await this.releases.row(loaded, releaseId);
    const [row] = await this.deps.db.select().from(attachments)
      .where(and(eq(attachments.id, attachmentId), eq(attachments.releaseId, release.id)));
    if (!row) throw new NotFound();
    return row;
  }

  /** Renames an asset; an empty name changes nothing. */
  async rename(loaded: LoadedRepo, releaseId: number, attachmentId: number, newName: string | null | undefined): Promise<AttachmentRow> {
    requireReleaseWriter(loaded);
    const row = await this.get(loaded, releaseId, attachmentId);
    if (!newName) return row;
    const name = sanitizeAttachmentName(newName);
    if (!name) throw new Invalid('[name]: the attachment needs a file name (no path separators or control characters)');
    // Gitea's UpdateAttachment checks the same list and answers 422.
    this.attachments.checkType(name, await this.attachments.storage.head(row.uuid), { allowed: this.types.allowed });
    const [renamed] = await this.deps.db.update(attachments).set({ name }).where(eq(attachments.id, row.id)).returning();
    if (!renamed) throw new NotFound();
    return renamed;
  }

  /** The row first, then the file (a file left behind is harmless; a row without its file is not). */
  async delete(loaded: LoadedRepo, releaseId: number, attachmentId: number): Promise<void> {
    requireReleaseWriter(loaded);
    const row = await this.get(loaded, releaseId, attachmentId);
    const gone = await this.deps.db.delete(attachments).where(eq(attachments.id, row.id)).returning({ uuid: attachments.uuid });
    if (gone.length === 0) throw new NotFound();
    await this.attachments.storage.remove(row.uuid).catch((err: Error) => this.deps.log.warn({ err: err.message, uuid: row.uuid }, 'release asset file not deleted'));
  }
}
