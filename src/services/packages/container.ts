// Gitea's container registry (OCI distribution) over the package model: an image is a package of type
// `container` named by its path under the owner (`alice/tools/cli` → `tools/cli`); each tag is a version
// (a manifest pushed by digest only is a version named by that digest), holding `manifest.json` (the
// manifest's bytes, its lead file) and the blobs the manifest names as files named by their digests.
// Blobs pushed before any manifest names them are files of the image's internal version `_upload` (never
// listed), as in Gitea; a blob belongs to an image when some version of it holds the blob.
//
// Uploads in progress live in $DATA_DIR/tmp/packages/container-uploads/<uuid> (the bytes, appended chunk
// by chunk, streamed) with <uuid>.json naming the owner and image; the digest is computed when the upload
// is finished, by reading the file once more (streamed), and the bytes go to the content-addressed store.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { packageBlobs, packageFiles, packages, packageVersions, type PackageBlobRow, type PackageVersionRow, type UserRow } from '../../db/schema/index.js';
import { generatedSecretKey } from '../../storage/secretKey.js';
import type { ServiceDeps } from '../context.js';
import { DomainError, isUniqueViolation } from '../errors.js';
import { QuotaExceeded, type PackageService, type Spooled } from './packages.js';

/** An OCI distribution error: the HTTP status and the error code clients read. */
export class RegistryError extends DomainError {
  readonly kind = 'Registry';
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export const imageShape = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
export const tagShape = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
export const digestShape = /^sha256:[a-f0-9]{64}$/;
const uploadShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const mediaTypes = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
} as const;
const indexTypes: string[] = [mediaTypes.ociIndex, mediaTypes.dockerList];
const manifestTypes: string[] = [mediaTypes.ociManifest, mediaTypes.dockerManifest];

/** The largest manifest accepted (Gitea's, 10 MiB); manifests are read whole to be checked. */
export const maxManifestSize = 10 * 1024 * 1024;
const uploadVersion = '_upload';
const manifestFile = 'manifest.json';
const tokenLifetimeMs = 24 * 3600 * 1000;

export const blobUnknown = () => new RegistryError(404, 'BLOB_UNKNOWN', 'blob unknown to registry');
export const manifestUnknown = () => new RegistryError(404, 'MANIFEST_UNKNOWN', 'manifest unknown');
export const nameUnknown = () => new RegistryError(404, 'NAME_UNKNOWN', 'repository name not known to registry');
const uploadUnknown = () => new RegistryError(404, 'BLOB_UPLOAD_UNKNOWN', 'blob upload unknown to registry');
const digestInvalid = (why = 'provided digest did not match uploaded content') => new RegistryError(400, 'DIGEST_INVALID', why);
const manifestInvalid = (why: string) => new RegistryError(400, 'MANIFEST_INVALID', `manifest invalid: ${why}`);

export interface ManifestView {
  blob: PackageBlobRow;
  mediaType: string;
  digest: string;
}

interface Descriptor {
  digest: string;
  mediaType?: string;
}

function descriptors(list: unknown, what: string): Descriptor[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw manifestInvalid(`${what} is not a list`);
  return list.map((d) => descriptor(d, what));
}

function descriptor(d: unknown, what: string): Descriptor {
  const digest = (d as { digest?: unknown } | null)?.digest;
  if (typeof digest !== 'string' || !digestShape.test(digest)) throw manifestInvalid(`${what} names an invalid digest`);
  return d as Descriptor;
}

export class ContainerRegistry {
  private tokenKey: Buffer | undefined;

  constructor(private readonly deps: ServiceDeps, private readonly packages: PackageService) {}

  // ------------------------------------------------------------------ tokens (/v2/token)

  private async key(): Promise<Buffer> {
    if (!this.tokenKey) {
      const secret = this.deps.config.secretKey ?? (await generatedSecretKey(this.deps.config.dataDir));
      this.tokenKey = createHmac('sha256', secret).update('anvil container registry token').digest();
    }
    return this.tokenKey;
  }

  /** A bearer token for the registry: the user (0: anonymous) and the scopes of the token they signed in with. */
  async issueToken(user: UserRow | null, scopes: string[] | undefined): Promise<{ token: string; expiresIn: number }> {
    const payload = Buffer.from(JSON.stringify({ u: user?.id ?? 0, s: scopes, exp: Date.now() + tokenLifetimeMs })).toString('base64url');
    const mac = createHmac('sha256', await this.key()).update(payload).digest('base64url');
    return { token: `anvilcr.${payload}.${mac}`, expiresIn: tokenLifetimeMs / 1000 };
  }

  static looksLikeToken(token: string): boolean {
    return token.startsWith('anvilcr.');
  }

  /** The holder of a registry token (userId 0: anonymous); undefined when forged or expired. */
  async verifyToken(token: string): Promise<{ userId: number; scopes: string[] | undefined } | undefined> {
    const [, payload, mac] = token.split('.');
    if (!payload || !mac) return undefined;
    const want = createHmac('sha256', await this.key()).update(payload).digest();
    const got = Buffer.from(mac, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u: number; s?: string[]; exp: number };
      if (typeof claims.exp !== 'number' || claims.exp < Date.now()) return undefined;
      return { userId: claims.u, scopes: claims.s };
    } catch {
      return undefined;
    }
  }

  // ------------------------------------------------------------------ blobs

  /** The blob `digest` if the image holds it (in any version, `_upload` included). */
  async findBlob(ownerId: number, image: string, digest: string): Promise<PackageBlobRow | undefined> {
    if (!digestShape.test(digest)) return undefined;
    const [row] = await this.deps.db.select({ blob: packageBlobs }).from(packageFiles)
      .innerJoin(packageBlobs, eq(packageBlobs.id, packageFiles.blobId))
      .innerJoin(packageVersions, eq(packageVersions.id, packageFiles.versionId))
      .innerJoin(packages, eq(packages.id, packageVersions.packageId))
      .where(and(eq(packages.ownerId, ownerId), eq(packages.type, 'container'), eq(packages.lowerName, image),
        eq(packageBlobs.sha256, digest.slice(7))))
      .limit(1);
    return row?.blob;
  }

  /** Records a kept blob as pushed to the image (a file of its `_upload` version). */
  private async addToImage(owner: UserRow, actor: UserRow, image: string, blob: PackageBlobRow): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const pkg = (await tx.insert(packages).values({ ownerId: owner.id, type: 'container', name: image, lowerName: image })
        .onConflictDoUpdate({ target: [packages.ownerId, packages.type, packages.lowerName], set: { name: sql`${packages.name}` } }).returning())[0]!;
      let [version] = await tx.insert(packageVersions)
        .values({ packageId: pkg.id, creatorId: actor.id, version: uploadVersion, lowerVersion: uploadVersion, isInternal: true })
        .onConflictDoNothing().returning();
      [version] = version ? [version] : await tx.select().from(packageVersions)
        .where(and(eq(packageVersions.packageId, pkg.id), eq(packageVersions.lowerVersion, uploadVersion)));
      const name = `sha256:${blob.sha256}`;
      await tx.insert(packageFiles).values({ versionId: version!.id, blobId: blob.id, name, lowerName: name }).onConflictDoNothing();
    });
  }

  /** Keeps a finished upload when its bytes are `digest`; the spooled file is gone afterwards. */
  private async accept(owner: UserRow, actor: UserRow, image: string, digest: string, s: Spooled): Promise<void> {
    try {
      if (`sha256:${s.sha256}` !== digest) throw digestInvalid();
      const limit = this.packages.sizeLimit('container');
      if (limit >= 0 && s.size > limit) throw new QuotaExceeded('the blob is larger than the limit for container images');
      await this.packages.checkQuota(this.deps.db, owner.id, false, s.size);
      const blob = await this.packages.keepBlob(s);
      await this.addToImage(owner, actor, image, blob);
    } finally {
      await rm(s.path, { force: true });
    }
  }

  /** A monolithic upload (`POST …/blobs/uploads/?digest=`). */
  async uploadWhole(owner: UserRow, actor: UserRow, image: string, digest: string, body: Readable): Promise<void> {
    if (!digestShape.test(digest)) throw digestInvalid('invalid digest');
    const s = await this.packages.spool(body, this.packages.sizeLimit('container'));
    await this.accept(owner, actor, image, digest, s);
  }

  /** A cross-repository mount: the blob of `from` (an image the caller may read) joins `image`; false when there is no such blob. */
  async mount(owner: UserRow, actor: UserRow, image: string, digest: string, from: { ownerId: number; image: string } | undefined): Promise<boolean> {
    if (!from || !digestShape.test(digest)) return false;
    const blob = await this.findBlob(from.ownerId, from.image, digest);
    if (!blob) return false;
    await this.packages.checkQuota(this.deps.db, owner.id, false, blob.size);
    await this.deps.db.update(packageBlobs).set({ createdAt: sql`now()` }).where(eq(packageBlobs.id, blob.id));
    await this.addToImage(owner, actor, image, blob);
    return true;
  }

  /** Removes a blob from the image's pushed blobs (a manifest that names it keeps it). */
  async deleteBlob(ownerId: number, image: string, digest: string): Promise<void> {
    if (!digestShape.test(digest)) throw digestInvalid('invalid digest');
    const gone = await this.deps.db.delete(packageFiles).where(and(eq(packageFiles.lowerName, digest), inArray(packageFiles.versionId,
      this.deps.db.select({ id: packageVersions.id }).from(packageVersions).innerJoin(packages, eq(packages.id, packageVersions.packageId))
        .where(and(eq(packages.ownerId, ownerId), eq(packages.type, 'container'), eq(packages.lowerName, image), eq(packageVersions.isInternal, true))))))
      .returning({ id: packageFiles.id });
    if (!gone.length) throw blobUnknown();
  }

  // ------------------------------------------------------------------ uploads in progress

  private uploadsDir(): string {
    return join(this.deps.config.dataDir, 'tmp', 'packages', 'container-uploads');
  }

  async startUpload(ownerId: number, image: string): Promise<string> {
    const uuid = randomUUID();
    await mkdir(this.uploadsDir(), { recursive: true });
    await writeFile(join(this.uploadsDir(), uuid), '');
    await writeFile(join(this.uploadsDir(), `${uuid}.json`), JSON.stringify({ ownerId, image }));
    return uuid;
  }

  /** The bytes received so far by an upload of this image. */
  async uploadSize(ownerId: number, image: string, uuid: string): Promise<number> {
    if (!uploadShape.test(uuid)) throw uploadUnknown();
    try {
      const info = JSON.parse(await readFile(join(this.uploadsDir(), `${uuid}.json`), 'utf8')) as { ownerId: number; image: string };
      if (info.ownerId !== ownerId || info.image !== image) throw uploadUnknown();
      return (await stat(join(this.uploadsDir(), uuid))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw uploadUnknown();
      throw err;
    }
  }

  /** Appends a chunk (PATCH, or the body of the closing PUT); `start` is the Content-Range's first byte. Answers the new size. */
  async appendUpload(ownerId: number, image: string, uuid: string, body: Readable, start?: number): Promise<number> {
    const size = await this.uploadSize(ownerId, image, uuid);
    if (start !== undefined && start !== size) throw new RegistryError(416, 'BLOB_UPLOAD_INVALID', `the chunk starts at ${start}, the upload has ${size} bytes`);
    const limit = this.packages.sizeLimit('container');
    let total = size;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        total += chunk.length;
        if (limit >= 0 && total > limit) return done(new QuotaExceeded('the blob is larger than the limit for container images'));
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, counter, createWriteStream(join(this.uploadsDir(), uuid), { flags: 'a' }));
    } catch (err) {
      if (err instanceof QuotaExceeded) await this.cancelUpload(ownerId, image, uuid);
      throw err;
    }
    return total;
  }

  /** Finishes an upload (PUT `?digest=`): its bytes must be `digest`; the upload is gone afterwards either way. */
  async finishUpload(owner: UserRow, actor: UserRow, image: string, uuid: string, digest: string, body: Readable): Promise<void> {
    if (!digestShape.test(digest)) throw digestInvalid('invalid digest');
    await this.appendUpload(owner.id, image, uuid, body);
    const path = join(this.uploadsDir(), uuid);
    const hashes = { md5: createHash('md5'), sha1: createHash('sha1'), sha256: createHash('sha256'), sha512: createHash('sha512') };
    let size = 0;
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      size += chunk.length;
      for (const h of Object.values(hashes)) h.update(chunk);
    }
    await rm(join(this.uploadsDir(), `${uuid}.json`), { force: true });
    await this.accept(owner, actor, image, digest, { path, size, md5: hashes.md5.digest('hex'), sha1: hashes.sha1.digest('hex'), sha256: hashes.sha256.digest('hex'), sha512: hashes.sha512.digest('hex') });
  }

  /**
   * `cleanup_packages`: uploads started and never finished (their bytes untouched for `olderThanMs`, Gitea's
   * OLDER_THAN of the task, 24 hours by default, as its cleanupExpiredUploadedBlobs) are removed, bytes and
   * description. Every chunk appended touches the bytes, so an upload in progress is never taken. Removing a
   * file twice is no error: processes sharing a data folder may sweep together. Answers how many went.
   */
  async removeAbandonedUploads(olderThanMs = 86_400_000, now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.uploadsDir());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    let removed = 0;
    const ids = new Set(names.map((n) => n.replace(/\.json$/, '')).filter((n) => uploadShape.test(n)));
    for (const uuid of ids) {
      // The bytes' last change; a description without bytes (a crash between the two writes) by its own.
      const touched = await stat(join(this.uploadsDir(), uuid)).catch(() => stat(join(this.uploadsDir(), `${uuid}.json`))).catch(() => undefined);
      if (!touched || now - touched.mtimeMs <= olderThanMs) continue;
      await rm(join(this.uploadsDir(), `${uuid}.json`), { force: true });
      await rm(join(this.uploadsDir(), uuid), { force: true });
      removed++;
    }
    return removed;
  }

  async cancelUpload(ownerId: number, image: string, uuid: string): Promise<void> {
    await this.uploadSize(ownerId, image, uuid);
    await rm(join(this.uploadsDir(), `${uuid}.json`), { force: true });
    await rm(join(this.uploadsDir(), uuid), { force: true });
  }

  // ------------------------------------------------------------------ manifests

  /**
   * Stores a manifest or index under `reference` (a tag, which moves to it, or its digest): the blobs an
   * image manifest names, and the manifests an index names, must be in the image already. Answers its digest.
   */
  async putManifest(owner: UserRow, actor: UserRow, image: string, reference: string, contentType: string, bytes: Buffer): Promise<string> {
    const byDigest = reference.startsWith('sha256:');
    if (byDigest ? !digestShape.test(reference) : !tagShape.test(reference)) throw new RegistryError(400, byDigest ? 'DIGEST_INVALID' : 'TAG_INVALID', 'invalid tag or digest');
    let doc: { mediaType?: unknown; schemaVersion?: unknown; config?: unknown; layers?: unknown; manifests?: unknown; blobs?: unknown };
    try {
      doc = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw manifestInvalid('not JSON');
    }
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw manifestInvalid('not a JSON object');
    if (doc.schemaVersion !== 2) throw manifestInvalid('schemaVersion must be 2');
    const declared = typeof doc.mediaType === 'string' ? doc.mediaType : undefined;
    const header = contentType.split(';')[0]!.trim().toLowerCase();
    const mediaType = declared ?? ([...manifestTypes, ...indexTypes].includes(header) ? header : (doc.manifests !== undefined ? mediaTypes.ociIndex : mediaTypes.ociManifest));
    if (![...manifestTypes, ...indexTypes].includes(mediaType)) throw manifestInvalid(`unsupported media type ${mediaType}`);
    if (declared && [...manifestTypes, ...indexTypes].includes(header) && header !== declared) throw manifestInvalid('the Content-Type is not the manifest\'s mediaType');
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (byDigest && reference !== digest) throw digestInvalid();

    // What it names must be in the image: blobs for a manifest, manifests for an index.
    const named = indexTypes.includes(mediaType)
      ? descriptors(doc.manifests, 'manifests')
      : [...(doc.config === undefined ? [] : [descriptor(doc.config, 'config')]), ...descriptors(doc.layers, 'layers')];
    if (!indexTypes.includes(mediaType) && doc.config === undefined) throw manifestInvalid('no config');
    const blobs = new Map<string, PackageBlobRow>();
    for (const d of named) {
      if (blobs.has(d.digest)) continue;
      const found = indexTypes.includes(mediaType) ? (await this.findManifest(owner.id, image, d.digest))?.blob : await this.findBlob(owner.id, image, d.digest);
      if (!found) throw new RegistryError(400, indexTypes.includes(mediaType) ? 'MANIFEST_UNKNOWN' : 'MANIFEST_BLOB_UNKNOWN', `${d.digest} is not in the image`);
      blobs.set(d.digest, found);
    }

    const s = await this.packages.spool(Readable.from([bytes]), -1);
    const manifestBlob = await this.packages.keepBlob(s);
    const metadata = { mediaType, digest };
    try {
      await this.deps.db.transaction(async (tx) => {
        const pkg = (await tx.insert(packages).values({ ownerId: owner.id, type: 'container', name: image, lowerName: image })
          .onConflictDoUpdate({ target: [packages.ownerId, packages.type, packages.lowerName], set: { name: sql`${packages.name}` } }).returning())[0]!;
        let [version] = await tx.select().from(packageVersions)
          .where(and(eq(packageVersions.packageId, pkg.id), eq(packageVersions.lowerVersion, reference.toLowerCase())));
        await this.packages.checkQuota(tx, owner.id, !version, bytes.length);
        if (version) {
          // A tag moves to the new manifest (pushing the same digest again changes nothing but the files).
          await tx.delete(packageFiles).where(eq(packageFiles.versionId, version.id));
          [version] = await tx.update(packageVersions).set({ metadata, creatorId: actor.id }).where(eq(packageVersions.id, version.id)).returning();
        } else {
          [version] = await tx.insert(packageVersions).values({ packageId: pkg.id, creatorId: actor.id, version: reference, lowerVersion: reference.toLowerCase(), metadata }).returning();
          await this.packages.packageEvent(tx, 'created', version!, owner, actor);
        }
        await tx.insert(packageFiles).values([
          { versionId: version!.id, blobId: manifestBlob.id, name: manifestFile, lowerName: manifestFile, isLead: true },
          ...[...blobs].map(([d, b]) => ({ versionId: version!.id, blobId: b.id, name: d, lowerName: d })),
        ]).onConflictDoNothing();
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new RegistryError(409, 'DENIED', 'the tag was pushed by someone else at the same time; try again');
      throw err;
    }
    return digest;
  }

  /** The manifest the image has under a tag or digest. */
  async findManifest(ownerId: number, image: string, reference: string): Promise<ManifestView | undefined> {
    const byDigest = reference.startsWith('sha256:');
    if (byDigest ? !digestShape.test(reference) : !tagShape.test(reference)) return undefined;
    const [row] = await this.deps.db.select({ blob: packageBlobs, version: packageVersions }).from(packageFiles)
      .innerJoin(packageBlobs, eq(packageBlobs.id, packageFiles.blobId))
      .innerJoin(packageVersions, eq(packageVersions.id, packageFiles.versionId))
      .innerJoin(packages, eq(packages.id, packageVersions.packageId))
      .where(and(eq(packages.ownerId, ownerId), eq(packages.type, 'container'), eq(packages.lowerName, image),
        eq(packageFiles.isLead, true), eq(packageVersions.isInternal, false),
        byDigest ? eq(packageBlobs.sha256, reference.slice(7)) : eq(packageVersions.lowerVersion, reference.toLowerCase())))
      .limit(1);
    if (!row) return undefined;
    return { blob: row.blob, mediaType: String(row.version.metadata.mediaType ?? mediaTypes.ociManifest), digest: `sha256:${row.blob.sha256}` };
  }

  /** Deletes a tag, or by digest every version (tag) whose manifest it is. */
  async deleteManifest(ownerId: number, image: string, reference: string, actor: UserRow): Promise<void> {
    const byDigest = reference.startsWith('sha256:');
    if (byDigest ? !digestShape.test(reference) : !tagShape.test(reference)) throw manifestUnknown();
    const rows: { version: PackageVersionRow }[] = await this.deps.db.select({ version: packageVersions }).from(packageFiles)
      .innerJoin(packageBlobs, eq(packageBlobs.id, packageFiles.blobId))
      .innerJoin(packageVersions, eq(packageVersions.id, packageFiles.versionId))
      .innerJoin(packages, eq(packages.id, packageVersions.packageId))
      .where(and(eq(packages.ownerId, ownerId), eq(packages.type, 'container'), eq(packages.lowerName, image),
        eq(packageFiles.isLead, true), eq(packageVersions.isInternal, false),
        byDigest ? eq(packageBlobs.sha256, reference.slice(7)) : eq(packageVersions.lowerVersion, reference.toLowerCase())));
    if (!rows.length) throw manifestUnknown();
    for (const r of rows) await this.packages.deleteVersion(r.version, actor);
  }

  /** The image's tags in order, `n` at most after `last`; `more` when others follow. */
  async tags(ownerId: number, image: string, n: number | undefined, last: string | undefined): Promise<{ tags: string[]; more: boolean }> {
    const pkg = await this.packages.findPackage(ownerId, 'container', image);
    if (!pkg) throw nameUnknown();
    const rows = await this.deps.db.select({ version: packageVersions.version }).from(packageVersions)
      .where(and(eq(packageVersions.packageId, pkg.id), eq(packageVersions.isInternal, false),
        sql`${packageVersions.version} not like 'sha256:%'`, last ? sql`${packageVersions.version} collate "C" > ${last}` : undefined))
      .orderBy(sql`${packageVersions.version} collate "C"`, asc(packageVersions.id))
      .limit(n === undefined ? 10_000 : n + 1);
    const tags = rows.map((r) => r.version);
    const more = n !== undefined && tags.length > n;
    return { tags: more ? tags.slice(0, n) : tags, more };
  }
}
