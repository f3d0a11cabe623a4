// npm's rules over the package registry (Gitea's npm registry): what `npm publish` sends (one version,
// its package.json and the tarball as a base64 attachment) is checked — the name and the version as npm
// allows them, the tarball's sha512 `integrity` (and sha1 `shasum`) against the bytes — then published; a
// version published once is never replaced (409). Dist-tags name one version each; `latest` stays.
import { Readable } from 'node:stream';
import type { PackageRow, PackageVersionRow, UserRow } from '../../db/schema/index.js';
import { BadRequest, NotFound } from '../errors.js';
import type { PackageService } from './packages.js';

export const npmNameShape = /^(@[a-z0-9-~][a-z0-9-~._]*\/)?[a-z0-9-~][a-z0-9-~._]*$/;
// Semantic Versioning 2.0.0's own expression.
const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
export const isSemver = (v: string): boolean => v.length <= 255 && semver.test(v);
const tagShape = /^[A-Za-z][-\w.]*$/;

/** The fields of a version's package.json that the package document shows (as Gitea keeps them). */
const keptFields = [
  'name', 'version', 'description', 'author', 'contributors', 'homepage', 'license', 'repository', 'bugs', 'keywords', 'main', 'types',
  'bin', 'man', 'directories', 'dependencies', 'devDependencies', 'peerDependencies', 'peerDependenciesMeta', 'optionalDependencies',
  'bundleDependencies', 'bundledDependencies', 'engines', 'os', 'cpu', 'scripts', 'readme', 'deprecated',
] as const;

/** The tarball's file name, as npm names it: `<name without scope>-<version>.tgz`. */
export const npmFilename = (name: string, version: string): string => `${name.split('/').pop()}-${version}.tgz`;

export function checkNpmName(name: string): void {
  if (name.length > 214 || !npmNameShape.test(name)) throw new BadRequest('package name invalid');
}

export function checkTag(tag: string): void {
  if (tag.length > 255 || !tagShape.test(tag) || isSemver(tag)) throw new BadRequest('invalid tag');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class NpmPackages {
  constructor(private readonly packages: PackageService) {}

  /** `npm publish`: the document of one new version with its tarball; 400 for what does not hold together. */
  async publish(owner: UserRow, actor: UserRow, pathName: string, body: unknown): Promise<{ name: string; version: string }> {
    if (!isObject(body) || !isObject(body.versions) || !isObject(body._attachments)) throw new BadRequest('invalid package document');
    const name = typeof body.name === 'string' ? body.name : '';
    checkNpmName(name);
    if (name !== pathName) throw new BadRequest('package name invalid');
    const versions = Object.entries(body.versions);
    const attachments = Object.values(body._attachments);
    if (versions.length !== 1 || attachments.length !== 1) throw new BadRequest('a publish carries exactly one version and one attachment');
    const [version, meta] = versions[0]!;
    if (!isSemver(version) || !isObject(meta) || meta.version !== version) throw new BadRequest('package version invalid');
    if (meta.name !== name) throw new BadRequest('package name invalid');
    const attachment = attachments[0];
    if (!isObject(attachment) || typeof attachment.data !== 'string') throw new BadRequest('invalid attachment');
    const dist = isObject(meta.dist) ? meta.dist : {};
    const tags = isObject(body['dist-tags']) ? Object.entries(body['dist-tags']).filter(([, v]) => v === version).map(([t]) => t) : [];
    for (const t of tags) checkTag(t);

    const bytes = Buffer.from(attachment.data, 'base64');
    if (typeof attachment.length === 'number' && attachment.length !== bytes.length) throw new BadRequest('invalid attachment');
    const spooled = await this.packages.spool(Readable.from([bytes]), this.packages.sizeLimit('npm'));
    try {
      const integrity = typeof dist.integrity === 'string' ? dist.integrity : '';
      const sha512 = `sha512-${Buffer.from(spooled.sha512, 'hex').toString('base64')}`;
      // Subresource Integrity may list several hashes: the sha512 ones must include the bytes' (a list that
      // merely began with another algorithm used to pass unchecked).
      const declared = integrity.split(/\s+/).filter((i) => i.startsWith('sha512-'));
      if (declared.length && !declared.includes(sha512)) throw new BadRequest('integrity of the tarball is not as declared');
      if (typeof dist.shasum === 'string' && dist.shasum.toLowerCase() !== spooled.sha1) throw new BadRequest('shasum of the tarball is not as declared');
    } catch (err) {
      await this.packages.discard([{ spooled }]);
      throw err;
    }

    const metadata: Record<string, unknown> = {};
    for (const f of keptFields) if (meta[f] !== undefined) metadata[f] = meta[f];
    if (metadata.readme === undefined && typeof body.readme === 'string') metadata.readme = body.readme;
    const { pkg, version: row } = await this.packages.publish(owner, actor, {
      type: 'npm', name, version, metadata, files: [{ name: npmFilename(name, version), spooled, isLead: true }], addToExisting: false,
    });
    for (const t of tags.length ? tags : ['latest']) await this.packages.setTag(pkg.id, t, row.id);
    return { name, version };
  }

  /** The package with every version (oldest first); 404 when there is none. */
  async document(ownerId: number, name: string): Promise<{ pkg: PackageRow; versions: PackageVersionRow[] }> {
    const pkg = await this.packages.findPackage(ownerId, 'npm', name);
    const versions = pkg ? await this.packages.versionsOf(pkg.id) : [];
    if (!pkg || !versions.length) throw new NotFound('package does not exist');
    return { pkg, versions };
  }

  /**
   * `npm deprecate`: the package document comes back (no attachment) with `deprecated` set on the versions
   * meant; a version without it (or with "") is not deprecated any more.
   */
  async deprecate(ownerId: number, pathName: string, body: unknown): Promise<void> {
    if (!isObject(body) || !isObject(body.versions)) throw new BadRequest('invalid package document');
    if (body.name !== pathName) throw new BadRequest('package name invalid');
    const sent = body.versions;
    const { versions } = await this.document(ownerId, pathName);
    for (const v of versions) {
      const s = sent[v.version];
      if (!isObject(s)) continue;
      const message = typeof s.deprecated === 'string' && s.deprecated !== '' ? s.deprecated.slice(0, 4096) : undefined;
      if (message !== v.metadata.deprecated) await this.packages.setMetadataField(v.id, 'deprecated', message);
    }
  }

  /** `npm dist-tag add`: the version must exist. */
  async addTag(ownerId: number, name: string, tag: string, version: string): Promise<void> {
    checkTag(tag);
    const found = await this.packages.findVersion(ownerId, 'npm', name, version);
    if (!found) throw new NotFound('package version does not exist');
    await this.packages.setTag(found.pkg.id, tag, found.version.id);
  }

  /** `npm dist-tag rm`: `latest` stays (npm installs it by default). */
  async removeTag(ownerId: number, name: string, tag: string): Promise<void> {
    if (tag === 'latest') throw new BadRequest('the tag latest cannot be removed');
    const pkg = await this.packages.findPackage(ownerId, 'npm', name);
    if (!pkg) throw new NotFound('package does not exist');
    await this.packages.removeTag(pkg.id, tag);
  }
}
