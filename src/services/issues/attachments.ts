// Attachments of issues, comments and releases (release assets: src/services/releases/releaseAssets.ts): upload (a file already streamed to the temporary folder), lists,
// rename and download. Files live in src/storage; the order is file first, then the database row, and
// the file goes again when the row cannot be written, so a failed upload leaves neither.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, asc, count, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { attachments, issues, releases, repositories, users, type AttachmentRow, type CommentRow, type IssueRow, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { canRead, canSeeRepo, canWrite, isRepoAdmin } from '../../permissions/repo.js';
import { AttachmentStorage, isAttachmentUuid } from '../../storage/attachments.js';
import type { AccessService } from '../repos/access.js';
import { sanitizeAttachmentName, typeAllowed } from './attachmentTypes.js';
import type { CommentService } from './comments.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import { canWriteIssue, issueUnit, type IssueService } from './issues.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

/** A file the HTTP edge has streamed to the temporary folder. */
export interface Upload {
  path: string;
  filename: string;
  head: Buffer;
  size: number;
}

export interface UploadInput {
  /** Undefined when the request had no `attachment` part. */
  file: Upload | undefined;
  /** `?name=`: overrides the part's file name when not empty. */
  name?: string;
}

export interface Download {
  attachment: AttachmentRow;
  size: number;
  /** The file, streamed; absent when the client is to be sent to `redirect` instead. */
  stream?: Readable;
  /** A presigned URL of the object (SERVE_DIRECT of S3 storage). */
  redirect?: string;
}

type Page = { limit: number; offset: number };

/** Which allow-list a file is checked against and the error a refused type becomes. */
export type TypeRule = { allowed?: string; refuse?: (message: string) => Error };

export class AttachmentService {
  readonly storage: AttachmentStorage;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly issues: IssueService,
    private readonly comments: CommentService,
  ) {
    this.storage = new AttachmentStorage(deps.config);
  }

  /** Gitea's mustEnableAttachments: with attachments off, the operations do not exist. */
  ensureEnabled(): void {
    if (!this.deps.config.attachment.enabled) throw new NotFound();
  }

  private ensureWritable(loaded: LoadedRepo): void {
    if (loaded.repo.isArchived) throw new RepoArchived();
  }

  /** Gitea's canUserWriteIssueCommentAttachment: (poster or an administrator) and a writer of the unit. */
  private checkCommentWrite(loaded: LoadedRepo, issue: IssueRow, comment: CommentRow, actor: UserRow): void {
    const posterOrAdmin = actor.id === comment.posterId || isRepoAdmin(loaded.perm) || actor.isAdmin;
    if (!posterOrAdmin || !canWriteIssue(loaded.perm, issue.isPull)) throw new Forbidden('user should have permission to edit comment');
  }

  fileName(input: UploadInput): string {
    const name = sanitizeAttachmentName(input.name || input.file!.filename);
    if (!name) throw new Invalid('[name]: the attachment needs a file name (no path separators or control characters)');
    return name;
  }

  /**
   * Refuses a type the allow-list does not allow: by default `[attachment] ALLOWED_TYPES` and 422 as Gitea's
   * issue attachments (release assets pass `[repository.release] ALLOWED_TYPES` and say 400).
   */
  checkType(name: string, head: Buffer, types: TypeRule = {}): void {
    const allowed = types.allowed ?? this.deps.config.attachment.allowedTypes;
    const refuse = types.refuse ?? ((m: string) => new Invalid(m));
    if (!typeAllowed(allowed, name, head)) throw refuse(`this file type is not allowed: ${name}`);
  }

  /**
   * Stores an accepted upload: file into place, then the row; the file goes again if the row fails. The
   * target is an issue (and comment) or a release.
   */
  async store(
    input: UploadInput, target: { repoId: number; issueId?: number | null; commentId?: number | null; releaseId?: number | null }, actor: UserRow,
    types?: TypeRule,
  ): Promise<AttachmentRow> {
    const file = input.file;
    if (!file) throw new Invalid('[attachment]: Required');
    const name = this.fileName(input);
    this.checkType(name, file.head, types);
    const uuid = randomUUID();
    await this.storage.moveIn(file.path, uuid);
    try {
      return await withTx(this.deps.db, async (tx) => {
        const [row] = await tx
          .insert(attachments)
          .values({
            uuid, repoId: target.repoId, issueId: target.issueId ?? null, commentId: target.commentId ?? null, releaseId: target.releaseId ?? null,
            uploaderId: actor.id, name, size: file.size,
          })
          .returning();
        return row!;
      });
    } catch (err) {
      await this.storage.remove(uuid);
      throw err;
    }
  }

  /** Upload to an issue itself: its poster, a writer of its unit, or a repository or site administrator. */
  async createForIssue(loaded: LoadedRepo, index: number, actor: UserRow, input: UploadInput): Promise<AttachmentRow> {
    this.ensureEnabled();
    this.ensureWritable(loaded);
    const issue = await this.issues.load(loaded, index);
    const allowed = actor.id === issue.posterId || isRepoAdmin(loaded.perm) || actor.isAdmin || canWriteIssue(loaded.perm, issue.isPull);
    if (!allowed) throw new Forbidden('user should have permission to write issue');
    return this.store(input, { repoId: loaded.repo.id, issueId: issue.id, commentId: null }, actor);
  }

  async createForComment(loaded: LoadedRepo, commentId: number, actor: UserRow, input: UploadInput): Promise<AttachmentRow> {
    this.ensureEnabled();
    this.ensureWritable(loaded);
    const { comment, issue } = await this.comments.load(loaded, commentId);
    this.checkCommentWrite(loaded, issue, comment, actor);
    if (comment.type !== 'comment') throw new BadRequest('comment type does not support attachments');
    return this.store(input, { repoId: loaded.repo.id, issueId: issue.id, commentId: comment.id }, actor);
  }

  private async page(where: SQL | undefined, page: Page): Promise<{ rows: AttachmentRow[]; total: number }> {
    const { db } = this.deps;
    const [rows, [total]] = await Promise.all([
      db.select().from(attachments).where(where).orderBy(asc(attachments.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(attachments).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** The issue's own attachments, not its comments'. */
  async listForIssue(loaded: LoadedRepo, index: number, page: Page): Promise<{ rows: AttachmentRow[]; total: number }> {
    this.ensureEnabled();
    const issue = await this.issues.load(loaded, index);
    return this.page(and(eq(attachments.issueId, issue.id), isNull(attachments.commentId)), page);
  }

  async listForComment(loaded: LoadedRepo, commentId: number, page: Page): Promise<{ rows: AttachmentRow[]; total: number }> {
    this.ensureEnabled();
    const { comment } = await this.comments.load(loaded, commentId);
    return this.page(eq(attachments.commentId, comment.id), page);
  }

  /** Renames a comment's attachment; an empty name changes nothing. */
  async renameCommentAttachment(loaded: LoadedRepo, commentId: number, attachmentId: number, actor: UserRow, newName: string | null | undefined): Promise<AttachmentRow> {
    this.ensureEnabled();
    this.ensureWritable(loaded);
    const { comment, issue } = await this.comments.load(loaded, commentId);
    this.checkCommentWrite(loaded, issue, comment, actor);
    const [row] = await this.deps.db.select().from(attachments).where(eq(attachments.id, attachmentId));
    if (!row || row.repoId !== loaded.repo.id || !row.issueId || !row.commentId || row.commentId !== comment.id) throw new NotFound();
    if (!newName) return row;
    const name = sanitizeAttachmentName(newName);
    if (!name) throw new Invalid('[name]: the attachment needs a file name (no path separators or control characters)');
    this.checkType(name, await this.storage.head(row.uuid));
    const [renamed] = await this.deps.db.update(attachments).set({ name }).where(eq(attachments.id, row.id)).returning();
    return renamed!;
  }

  /** An attachment of the issue (its own or one of its comments', as Gitea's getIssueAttachmentSafeRead). */
  async getForIssue(loaded: LoadedRepo, index: number, attachmentId: number): Promise<{ issue: IssueRow; row: AttachmentRow }> {
    this.ensureEnabled();
    const issue = await this.issues.load(loaded, index);
    const [row] = await this.deps.db.select().from(attachments).where(eq(attachments.id, attachmentId));
    if (!row || row.repoId !== loaded.repo.id || row.issueId !== issue.id) throw new NotFound();
    return { issue, row };
  }

  /** Gitea's canUserWriteIssueAttachment: the issue's poster, a writer of its unit, or an administrator. */
  private checkIssueWrite(loaded: LoadedRepo, issue: IssueRow, actor: UserRow): void {
    const allowed = actor.id === issue.posterId || isRepoAdmin(loaded.perm) || actor.isAdmin || canWriteIssue(loaded.perm, issue.isPull);
    if (!allowed) throw new Forbidden('user should have permission to write issue');
  }

  private async rename(row: AttachmentRow, newName: string | null | undefined): Promise<AttachmentRow> {
    if (!newName) return row;
    const name = sanitizeAttachmentName(newName);
    if (!name) throw new Invalid('[name]: the attachment needs a file name (no path separators or control characters)');
    this.checkType(name, await this.storage.head(row.uuid));
    const [renamed] = await this.deps.db.update(attachments).set({ name }).where(eq(attachments.id, row.id)).returning();
    if (!renamed) throw new NotFound();
    return renamed;
  }

  /** Row first, then the file (a file without a row is never served; a row without a file would be). */
  private async remove(row: AttachmentRow): Promise<void> {
    const gone = await this.deps.db.delete(attachments).where(eq(attachments.id, row.id)).returning({ uuid: attachments.uuid });
    if (!gone.length) throw new NotFound();
    await this.storage.remove(row.uuid);
  }

  async renameForIssue(loaded: LoadedRepo, index: number, attachmentId: number, actor: UserRow, newName: string | null | undefined): Promise<AttachmentRow> {
    const { issue, row } = await this.getForIssue(loaded, index, attachmentId);
    this.checkIssueWrite(loaded, issue, actor);
    this.ensureWritable(loaded);
    return this.rename(row, newName);
  }

  async deleteForIssue(loaded: LoadedRepo, index: number, attachmentId: number, actor: UserRow): Promise<void> {
    const { issue, row } = await this.getForIssue(loaded, index, attachmentId);
    this.checkIssueWrite(loaded, issue, actor);
    this.ensureWritable(loaded);
    await this.remove(row);
  }

  /** An attachment of the comment. */
  async getForComment(loaded: LoadedRepo, commentId: number, attachmentId: number): Promise<{ comment: CommentRow; issue: IssueRow; row: AttachmentRow }> {
    this.ensureEnabled();
    const { comment, issue } = await this.comments.load(loaded, commentId);
    const [row] = await this.deps.db.select().from(attachments).where(eq(attachments.id, attachmentId));
    if (!row || row.repoId !== loaded.repo.id || row.commentId !== comment.id) throw new NotFound();
    return { comment, issue, row };
  }

  async deleteForComment(loaded: LoadedRepo, commentId: number, attachmentId: number, actor: UserRow): Promise<void> {
    const { comment, issue, row } = await this.getForComment(loaded, commentId, attachmentId);
    this.checkCommentWrite(loaded, issue, comment, actor);
    this.ensureWritable(loaded);
    await this.remove(row);
  }

  /**
   * The file behind `/attachments/{uuid}`, for whoever may read its issue or release (a draft's only for
   * writers of releases; 404 for anyone else); each download counts.
   */
  async download(uuid: string, actor: UserRow | null, opts: { count: boolean }): Promise<Download> {
    if (!isAttachmentUuid(uuid)) throw new NotFound();
    const { db } = this.deps;
    const [hit] = await db
      .select({ attachment: attachments, repo: repositories, owner: users, issue: issues, release: releases })
      .from(attachments)
      .innerJoin(repositories, eq(repositories.id, attachments.repoId))
      .innerJoin(users, eq(users.id, repositories.ownerId))
      .leftJoin(issues, eq(issues.id, attachments.issueId))
      .leftJoin(releases, eq(releases.id, attachments.releaseId))
      .where(eq(attachments.uuid, uuid));
    if (!hit || (!hit.issue && !hit.release)) throw new NotFound();
    const perm = await this.access.repoPermission(hit.repo, hit.owner, actor);
    const readable = hit.issue
      ? canRead(perm, issueUnit(hit.issue.isPull))
      : canRead(perm, 'repo.releases') && (!hit.release!.isDraft || canWrite(perm, 'repo.releases'));
    if (!canSeeRepo(perm) || !readable) throw new NotFound();
    const size = await this.storage.size(uuid);
    if (size === undefined) {
      this.deps.log.warn({ uuid }, 'attachment file is missing');
      throw new NotFound();
    }
    let attachment = hit.attachment;
    if (opts.count) {
      const [row] = await db
        .update(attachments)
        .set({ downloadCount: sql`${attachments.downloadCount} + 1` })
        .where(eq(attachments.id, attachment.id))
        .returning();
      attachment = row ?? attachment;
    }
    const redirect = await this.storage.directUrl(uuid, attachment.name);
    if (redirect) return { attachment, size, redirect };
    const stream = await this.storage.read(uuid);
    if (!stream) throw new NotFound();
    return { attachment, size, stream };
  }
}
