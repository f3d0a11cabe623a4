// The package registry (Gitea's packages): who may read and publish an owner's packages, publishing
// files into versions (a version's file is never overwritten), reading, deleting, linking to a
// repository, quotas and size limits, and the `cleanup_packages` cron task. The formats (generic, npm,
// PyPI, container) are thin layers over this service in src/api/packages/.
//
// A file's bytes are spooled to $DATA_DIR/tmp while md5, sha1, sha256 and sha512 are computed (never held
// in memory), then kept once in the `packages` store under `<sha256[0:2]>/<sha256[2:4]>/<sha256>`.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, desc, eq, ilike, inArray, lt, notExists, sql } from 'drizzle-orm';
import {
  packageBlobs, packageCleanupRules, packageFiles, packages, packageVersions, repositories, teamMembers, teams, teamUnits, users,
  type PackageBlobRow, type PackageFileRow, type PackageRow, type PackageVersionRow, type RepoRow, type UserRow,
} from '../../db/schema/index.js';
import { canSeeOwner } from '../../permissions/org.js';
import { canSeeRepo, type RepoPermission } from '../../permissions/repo.js';
import { storeFor, type BlobStore } from '../../storage/index.js';
import type { Db } from '../../db/client.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Forbidden, Invalid, NotFound, isUniqueViolation } from '../errors.js';
import { recordEvent } from '../events/record.js';
import type { AccessService } from '../repos/access.js';
import { selectCleanupVersions, type CleanupCandidate } from './cleanupSelection.js';

export const packageTypes = ['generic', 'npm', 'pypi', 'container'] as const;
export type PackageType = (typeof packageTypes)[number];
export const isPackageType = (t: unknown): t is PackageType => packageTypes.includes(t as PackageType);

/** What the caller may do with an owner's packages. */
export type PackageAccess = 'none' | 'read' | 'write';

export const blobKey = (sha256: string): string => {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
  return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
};

/** A version with its package and owner, as the API shows it. */
export interface VersionView {
  pkg: PackageRow;
  version: PackageVersionRow;
  owner: UserRow;
  creator: UserRow | undefined;
  repo: { repo: RepoRow; owner: UserRow; perm: RepoPermission } | undefined;
}

export interface FileView {
  file: PackageFileRow;
  blob: PackageBlobRow;
}

/** A spooled upload: a local file with its digests. */
export interface Spooled {
  path: string;
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

export interface PublishFile {
  name: string;
  spooled: Spooled;
  isLead?: boolean;
}

export interface PublishInput {
  type: PackageType;
  name: string;
  version: string;
  metadata?: Record<string, unknown>;
  files: PublishFile[];
  /** Generic and PyPI add files to an existing version; npm refuses a version published once. */
  addToExisting: boolean;
}

/** Quota errors: Gitea answers them 403 on its package routes. */
export class QuotaExceeded extends Forbidden {}

export class PackageService {
  readonly store: BlobStore;

  constructor(private readonly deps: ServiceDeps, private readonly access: AccessService) {
    this.store = storeFor(deps.config, 'packages');
  }

  ensureEnabled(): void {
    if (!this.deps.config.packages.enabled) throw new NotFound();
  }

  // ------------------------------------------------------------------ access

  /**
   * Gitea's package access: nothing where the owner is hidden; site administrators and the owner (a
   * user, or an organization's owners) write; organization members write through a team with the
   * packages unit at write (or an admin team); everyone who sees the owner reads.
   */
  async accessOf(owner: UserRow, actor: UserRow | null): Promise<PackageAccess> {
    if (actor?.isAdmin) return 'write';
    if (owner.type !== 'Organization') {
      if (actor && actor.id === owner.id) return 'write';
      return (await this.access.canSeeOwner(owner, actor)) ? 'read' : 'none';
    }
    const viewer = await this.access.orgViewer(owner.id, actor);
    if (!canSeeOwner(owner.visibility, viewer)) return 'none';
    if (viewer.isOwner) return 'write';
    if (!viewer.isMember || !actor) return 'read';
    const [row] = await this.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .leftJoin(teamUnits, and(eq(teamUnits.teamId, teams.id), eq(teamUnits.unit, 'repo.packages')))
      .where(and(eq(teamMembers.userId, actor.id), eq(teamMembers.orgId, owner.id),
        sql`(${teams.accessMode} in ('admin', 'owner') or ${teamUnits.accessMode} in ('write', 'admin', 'owner'))`));
    return Number(row?.n ?? 0) > 0 ? 'write' : 'read';
  }

  /** The owner by name, with what the caller may do; `none` when there is no such owner either. */
  async ownerAccess(name: string, actor: UserRow | null): Promise<{ owner: UserRow | undefined; access: PackageAccess }> {
    this.ensureEnabled();
    const [owner] = await this.deps.db.select().from(users).where(eq(users.lowerName, name.toLowerCase()));
    if (!owner) return { owner: undefined, access: 'none' };
    return { owner, access: await this.accessOf(owner, actor) };
  }

  // ------------------------------------------------------------------ uploads

  /** Streams `body` to a local file while hashing it; at most `limit` bytes (-1: any). */
  async spool(body: Readable, limit: number, expectedSize?: number): Promise<Spooled> {
    const dir = join(this.deps.config.dataDir, 'tmp', 'packages');
    await mkdir(dir, { recursive: true });
    const path = join(dir, randomUUID());
    const hashes = { md5: createHash('md5'), sha1: createHash('sha1'), sha256: createHash('sha256'), sha512: createHash('sha512') };
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (limit >= 0 && size > limit) return done(new QuotaExceeded('the file is larger than the limit for its package type'));
        for (const h of Object.values(hashes)) h.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, counter, createWriteStream(path));
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
    if (expectedSize !== undefined && expectedSize !== size) {
      await rm(path, { force: true });
      throw new Invalid('the body is not as long as declared');
    }
    return { path, size, md5: hashes.md5.digest('hex'), sha1: hashes.sha1.digest('hex'), sha256: hashes.sha256.digest('hex'), sha512: hashes.sha512.digest('hex') };
  }

  /** The limit for one file of `type` (-1: none). */
  sizeLimit(type: PackageType): number {
    return this.deps.config.packages.limitSize[type] ?? -1;
  }

  /** Makes sure the blob of `s` is in the store and recorded (once); the spooled file is gone afterwards. */
  async keepBlob(s: Spooled): Promise<PackageBlobRow> {
    // Touch (or make) the row first: the cleanup removes only blobs no file holds that are an hour old.
    const [row] = await this.deps.db
      .insert(packageBlobs)
      .values({ sha256: s.sha256, size: s.size, md5: s.md5, sha1: s.sha1, sha512: s.sha512 })
      .onConflictDoUpdate({ target: packageBlobs.sha256, set: { createdAt: sql`now()` } })
      .returning();
    const key = blobKey(s.sha256);
    if ((await this.store.stat(key))?.size === s.size) await rm(s.path, { force: true });
    else await this.store.putFile(key, s.path);
    return row!;
  }

  /** Drops spooled files that were not kept (a refused upload). */
  async discard(files: { spooled: Spooled }[]): Promise<void> {
    for (const f of files) await rm(f.spooled.path, { force: true });
  }

  /** The owner's quotas (Gitea's LIMIT_TOTAL_OWNER_COUNT and _SIZE), before a new version or file. */
  async checkQuota(tx: Db, ownerId: number, newVersion: boolean, addedBytes: number): Promise<void> {
    const { limitTotalOwnerCount: maxCount, limitTotalOwnerSize: maxSize } = this.deps.config.packages;
    if (maxCount >= 0 && newVersion) {
      const [r] = await tx.select({ n: sql<number>`count(*)::int` }).from(packageVersions)
        .innerJoin(packages, eq(packages.id, packageVersions.packageId)).where(and(eq(packages.ownerId, ownerId), eq(packageVersions.isInternal, false)));
      if (Number(r?.n ?? 0) + 1 > maxCount) throw new QuotaExceeded('the owner has too many package versions');
    }
    if (maxSize >= 0) {
      const [r] = await tx.select({ n: sql<string>`coalesce(sum(${packageBlobs.size}), 0)::text` }).from(packageFiles)
        .innerJoin(packageBlobs, eq(packageBlobs.id, packageFiles.blobId))
        .innerJoin(packageVersions, eq(packageVersions.id, packageFiles.versionId))
        .innerJoin(packages, eq(packages.id, packageVersions.packageId)).where(eq(packages.ownerId, ownerId));
      if (Number(r?.n ?? 0) + addedBytes > maxSize) throw new QuotaExceeded('the owner\'s packages are too large');
    }
  }

  /**
   * Publishes files into a version (made when new). A file name the version holds already is 409, as
   * is an existing version where the format does not add to one. Spooled files are kept or removed.
   */
  async publish(owner: UserRow, actor: UserRow, input: PublishInput): Promise<{ pkg: PackageRow; version: PackageVersionRow; created: boolean }> {
    try {
      const blobs: PackageBlobRow[] = [];
      for (const f of input.files) {
        const limit = this.sizeLimit(input.type);
        if (limit >= 0 && f.spooled.size > limit) throw new QuotaExceeded('the file is larger than the limit for its package type');
      }
      // Refuse a plain conflict before keeping any bytes.
      const existing = await this.findVersion(owner.id, input.type, input.name, input.version);
      if (existing && !input.addToExisting) throw new Conflict('package version already exists');
      for (const f of input.files) blobs.push(await this.keepBlob(f.spooled));
      const added = input.files.reduce((n, f) => n + f.spooled.size, 0);
      return await this.deps.db.transaction(async (tx) => {
        await this.checkQuota(tx, owner.id, !existing, added);
        let [pkg] = await tx.select().from(packages)
          .where(and(eq(packages.ownerId, owner.id), eq(packages.type, input.type), eq(packages.lowerName, input.name.toLowerCase())));
        pkg ??= (await tx.insert(packages).values({ ownerId: owner.id, type: input.type, name: input.name, lowerName: input.name.toLowerCase() })
          .onConflictDoUpdate({ target: [packages.ownerId, packages.type, packages.lowerName], set: { name: sql`${packages.name}` } }).returning())[0]!;
        let [version] = await tx.select().from(packageVersions)
          .where(and(eq(packageVersions.packageId, pkg.id), eq(packageVersions.lowerVersion, input.version.toLowerCase())));
        let created = !version;
        if (version && !input.addToExisting) throw new Conflict('package version already exists');
        if (!version) {
          // Another upload may make the same version meanwhile: a format that adds files joins it.
          [version] = await tx.insert(packageVersions).values({
            packageId: pkg.id, creatorId: actor.id, version: input.version, lowerVersion: input.version.toLowerCase(), metadata: input.metadata ?? {},
          }).onConflictDoNothing().returning();
          if (!version) {
            if (!input.addToExisting) throw new Conflict('package version already exists');
            created = false;
            [version] = await tx.select().from(packageVersions)
              .where(and(eq(packageVersions.packageId, pkg.id), eq(packageVersions.lowerVersion, input.version.toLowerCase())));
          }
        }
        if (!version) throw new Conflict('package version was deleted meanwhile; try again');
        if (!created && input.metadata) {
          [version] = await tx.update(packageVersions).set({ metadata: { ...version.metadata, ...input.metadata } }).where(eq(packageVersions.id, version.id)).returning();
        }
        for (const [i, f] of input.files.entries()) {
          const inserted = await tx.insert(packageFiles)
            .values({ versionId: version!.id, blobId: blobs[i]!.id, name: f.name, lowerName: f.name.toLowerCase(), isLead: !!f.isLead })
            .onConflictDoNothing().returning({ id: packageFiles.id });
          if (!inserted.length) throw new Conflict('package file already exists');
        }
        if (created) await this.packageEvent(tx, 'created', version!, owner, actor);
        return { pkg, version: version!, created };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new Conflict('package version already exists');
      throw err;
    } finally {
      await this.discard(input.files);
    }
  }

  // ------------------------------------------------------------------ reads

  async findPackage(ownerId: number, type: string, name: string): Promise<PackageRow | undefined> {
    const [pkg] = await this.deps.db.select().from(packages)
      .where(and(eq(packages.ownerId, ownerId), eq(packages.type, type), eq(packages.lowerName, name.toLowerCase())));
    return pkg;
  }

  async findVersion(ownerId: number, type: string, name: string, version: string): Promise<{ pkg: PackageRow; version: PackageVersionRow } | undefined> {
    const [row] = await this.deps.db.select({ pkg: packages, version: packageVersions }).from(packageVersions)
      .innerJoin(packages, eq(packages.id, packageVersions.packageId))
      .where(and(eq(packages.ownerId, ownerId), eq(packages.type, type), eq(packages.lowerName, name.toLowerCase()),
        eq(packageVersions.lowerVersion, version.toLowerCase()), eq(packageVersions.isInternal, false)));
    return row;
  }

  async files(versionId: number): Promise<FileView[]> {
    return this.deps.db.select({ file: packageFiles, blob: packageBlobs }).from(packageFiles)
      .innerJoin(packageBlobs, eq(packageBlobs.id, packageFiles.blobId))
      .where(eq(packageFiles.versionId, versionId)).orderBy(asc(packageFiles.id));
  }

  async file(versionId: number, name: string): Promise<FileView | undefined> {
    const [row] = await this.deps.db.select({ file: packageFiles, blob: packageBlobs }).from(packageFiles)
      .innerJoin(packageBlobs, eq(packageBlobs.id, packageFiles.blobId))
      .where(and(eq(packageFiles.versionId, versionId), eq(packageFiles.lowerName, name.toLowerCase())));
    return row;
  }

  /** The bytes of a blob, streamed; or a presigned URL with SERVE_DIRECT. */
  async open(blob: PackageBlobRow, filename: string): Promise<{ stream?: Readable; redirect?: string; size: number }> {
    const key = blobKey(blob.sha256);
    const redirect = await this.store.directUrl(key, { filename });
    if (redirect) return { redirect, size: blob.size };
    const stream = await this.store.get(key);
    if (!stream) throw new NotFound('the file is missing from the store');
    return { stream, size: blob.size };
  }

  /** Every version of `owner`'s packages, newest first, filtered by type and name. */
  async search(actor: UserRow | null, ownerId: number, opts: { type?: string; q?: string; page: number; limit: number; packageId?: number }): Promise<{ views: VersionView[]; total: number }> {
    const where = and(
      eq(packages.ownerId, ownerId),
      eq(packageVersions.isInternal, false),
      opts.type ? eq(packages.type, opts.type) : undefined,
      opts.q ? ilike(packages.name, `%${opts.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
      opts.packageId ? eq(packages.id, opts.packageId) : undefined,
    );
    const [rows, [count]] = await Promise.all([
      this.deps.db.select({ pkg: packages, version: packageVersions }).from(packageVersions)
        .innerJoin(packages, eq(packages.id, packageVersions.packageId)).where(where)
        .orderBy(desc(packageVersions.createdAt), desc(packageVersions.id))
        .limit(opts.limit).offset((opts.page - 1) * opts.limit),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(packageVersions).innerJoin(packages, eq(packages.id, packageVersions.packageId)).where(where),
    ]);
    return { views: await this.views(rows, actor), total: Number(count?.n ?? 0) };
  }

  /**
   * An owner's packages of one type whose name contains `q`, by name, each with its newest version (npm
   * search); `total` counts the packages. Packages with only internal versions are not shown.
   */
  async searchLatest(ownerId: number, type: PackageType, q: string, offset: number, limit: number): Promise<{ rows: { pkg: PackageRow; version: PackageVersionRow }[]; total: number }> {
    const where = and(
      eq(packages.ownerId, ownerId), eq(packages.type, type),
      q ? ilike(packages.name, `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
      sql`exists (select 1 from ${packageVersions} where ${packageVersions.packageId} = ${packages.id} and not ${packageVersions.isInternal})`,
    );
    const [pkgs, [count]] = await Promise.all([
      this.deps.db.select().from(packages).where(where).orderBy(asc(packages.lowerName)).limit(limit).offset(offset),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(packages).where(where),
    ]);
    const rows: { pkg: PackageRow; version: PackageVersionRow }[] = [];
    for (const pkg of pkgs) {
      const version = await this.latest(pkg);
      if (version) rows.push({ pkg, version });
    }
    return { rows, total: Number(count?.n ?? 0) };
  }

  /** Adds owners, creators and the linked repositories `actor` may see to (package, version) rows. */
  async views(rows: { pkg: PackageRow; version: PackageVersionRow }[], actor: UserRow | null): Promise<VersionView[]> {
    if (!rows.length) return [];
    const userIds = [...new Set(rows.flatMap((r) => [r.pkg.ownerId, r.version.creatorId]))];
    const repoIds = [...new Set(rows.map((r) => r.pkg.repoId).filter((id): id is number => !!id))];
    const [us, reach] = await Promise.all([
      this.deps.db.select().from(users).where(inArray(users.id, userIds)),
      this.access.reposById(repoIds, actor),
    ]);
    const byId = new Map(us.map((u) => [u.id, u]));
    return rows.map((r) => {
      const linked = r.pkg.repoId ? reach.get(r.pkg.repoId) : undefined;
      return { ...r, owner: byId.get(r.pkg.ownerId)!, creator: byId.get(r.version.creatorId), repo: linked && canSeeRepo(linked.perm) ? linked : undefined };
    });
  }

  async view(pkg: PackageRow, version: PackageVersionRow, actor: UserRow | null): Promise<VersionView> {
    return (await this.views([{ pkg, version }], actor))[0]!;
  }

  /** A package's newest version. */
  async latest(pkg: PackageRow): Promise<PackageVersionRow | undefined> {
    const [v] = await this.deps.db.select().from(packageVersions).where(and(eq(packageVersions.packageId, pkg.id), eq(packageVersions.isInternal, false)))
      .orderBy(desc(packageVersions.createdAt), desc(packageVersions.id)).limit(1);
    return v;
  }

  /** Every version of a package, oldest first. */
  async versionsOf(packageId: number): Promise<PackageVersionRow[]> {
    return this.deps.db.select().from(packageVersions).where(and(eq(packageVersions.packageId, packageId), eq(packageVersions.isInternal, false)))
      .orderBy(asc(packageVersions.createdAt), asc(packageVersions.id));
  }

  /** Sets (or, with undefined, removes) one key of a version's metadata, leaving the others as they are. */
  async setMetadataField(versionId: number, key: string, value: unknown): Promise<void> {
    await this.deps.db.update(packageVersions)
      .set({ metadata: value === undefined ? sql`${packageVersions.metadata} - ${key}::text` : sql`jsonb_set(${packageVersions.metadata}, ${`{${key}}`}::text[], ${JSON.stringify(value)}::jsonb)` })
      .where(eq(packageVersions.id, versionId));
  }

  // ------------------------------------------------------------------ tags

  /**
   * Points a package's tag (npm's dist-tags) at one of its versions: a tag names one version at a time,
   * kept in the versions' metadata under `dist-tags`.
   */
  async setTag(packageId: number, tag: string, versionId: number): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await this.untag(tx, packageId, tag);
      await tx.update(packageVersions)
        .set({ metadata: sql`jsonb_set(${packageVersions.metadata}, '{dist-tags}', coalesce(${packageVersions.metadata}->'dist-tags', '[]'::jsonb) || to_jsonb(${tag}::text))` })
        .where(eq(packageVersions.id, versionId));
    });
  }

  async removeTag(packageId: number, tag: string): Promise<void> {
    await this.untag(this.deps.db, packageId, tag);
  }

  private async untag(db: Db, packageId: number, tag: string): Promise<void> {
    await db.update(packageVersions)
      .set({ metadata: sql`jsonb_set(${packageVersions.metadata}, '{dist-tags}', coalesce(${packageVersions.metadata}->'dist-tags', '[]'::jsonb) - ${tag}::text)` })
      .where(and(eq(packageVersions.packageId, packageId), sql`coalesce(${packageVersions.metadata}->'dist-tags', '[]'::jsonb) @> jsonb_build_array(${tag}::text)`));
  }

  // ------------------------------------------------------------------ changes

  /** The `package` webhook event of a version published or deleted (the owner's hooks and the system's hear it). */
  async packageEvent(tx: Db, action: 'created' | 'deleted', version: PackageVersionRow, owner: UserRow, actor: UserRow): Promise<void> {
    await recordEvent(this.deps, tx, { type: 'package', action, versionId: version.id, actorId: actor.id, ownerId: owner.id, isPrivate: owner.visibility !== 'public' });
  }

  /**
   * Removes a version and its files; the package goes with its last version. Blobs wait for the cleanup.
   * With the actor (not the cleanup task's removals, as in Gitea) the owner's hooks hear of it.
   */
  async deleteVersion(version: PackageVersionRow, actor?: UserRow): Promise<void> {
    await this.deps.db.transaction((tx) => this.deleteVersionIn(tx, version, actor));
  }

  private async deleteVersionIn(tx: Db, version: PackageVersionRow, actor?: UserRow): Promise<void> {
    if (actor) {
      const [owner] = await tx.select({ owner: users }).from(packages).innerJoin(users, eq(users.id, packages.ownerId)).where(eq(packages.id, version.packageId));
      if (owner) await this.packageEvent(tx, 'deleted', version, owner.owner, actor);
    }
    await tx.delete(packageVersions).where(eq(packageVersions.id, version.id));
    await tx.delete(packages).where(and(eq(packages.id, version.packageId),
      notExists(tx.select({ one: sql`1` }).from(packageVersions).where(eq(packageVersions.packageId, version.packageId)))));
  }

  /**
   * Removes one file; the version goes with its last file (Gitea's generic DELETE of a file). One
   * transaction that first locks the version's row: concurrent deletions of its files queue there, so the
   * one that removes the last file sees that none is left and removes the version, and no deletion removes
   * a version another file still belongs to (a file being added waits on the same row: its foreign key).
   * A file or version that a concurrent deletion removed first is 404.
   */
  async deleteFile(version: PackageVersionRow, file: PackageFileRow, actor?: UserRow): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [locked] = await tx.select({ id: packageVersions.id }).from(packageVersions).where(eq(packageVersions.id, version.id)).for('update');
      if (!locked) throw new NotFound();
      const gone = await tx.delete(packageFiles).where(and(eq(packageFiles.id, file.id), eq(packageFiles.versionId, version.id))).returning({ id: packageFiles.id });
      if (!gone.length) throw new NotFound();
      const [left] = await tx.select({ one: sql`1` }).from(packageFiles).where(eq(packageFiles.versionId, version.id)).limit(1);
      if (!left) await this.deleteVersionIn(tx, version, actor);
    });
  }

  /** Links the package to one of its owner's repositories (Gitea: the caller must be able to write it). */
  async link(pkg: PackageRow, repo: RepoRow): Promise<void> {
    if (repo.ownerId !== pkg.ownerId) throw new NotFound();
    await this.deps.db.update(packages).set({ repoId: repo.id }).where(eq(packages.id, pkg.id));
  }

  async unlink(pkg: PackageRow): Promise<void> {
    await this.deps.db.update(packages).set({ repoId: null }).where(eq(packages.id, pkg.id));
  }

  // ------------------------------------------------------------------ cleanup

  /**
   * The `cleanup_packages` cron task: applies each owner's enabled cleanup rules (the versions
   * selectCleanupVersions picks, which the rule's preview page lists too), then removes blobs that no file
   * holds and that nothing touched for an hour (an upload touches the blob it reuses first).
   */
  async cleanup(): Promise<{ versions: number; blobs: number }> {
    let removedVersions = 0;
    const rules = await this.deps.db.select().from(packageCleanupRules).where(eq(packageCleanupRules.enabled, true)).orderBy(asc(packageCleanupRules.id));
    for (const rule of rules) {
      let chosen: CleanupCandidate[];
      try {
        chosen = await selectCleanupVersions(this.deps.db, rule);
      } catch (err) {
        if (!(err instanceof Invalid)) throw err;
        this.deps.log.warn({ rule: rule.id, err: err.message }, 'package cleanup rule skipped');
        continue;
      }
      for (const c of chosen) {
        await this.deleteVersion(c.version);
        removedVersions++;
      }
    }
    const gone = await this.deps.db.delete(packageBlobs)
      .where(and(lt(packageBlobs.createdAt, new Date(Date.now() - 3_600_000)),
        notExists(this.deps.db.select({ one: sql`1` }).from(packageFiles).where(eq(packageFiles.blobId, packageBlobs.id)))))
      .returning({ sha256: packageBlobs.sha256 });
    for (const b of gone) await this.store.remove(blobKey(b.sha256));
    return { versions: removedVersions, blobs: gone.length };
  }
}

