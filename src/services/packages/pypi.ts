// PyPI's rules over the package registry (Gitea's PyPI registry): what `twine upload` sends (the file
// and its core metadata as form fields) is checked — the name and version as PEP 508/440 allow them, the
// file's sha256 (and md5, when sent) against its bytes — then added to the version (a version takes
// several files: sdist and wheels; a file name it has is 409). Names are kept PEP 503-normalized in
// their separators (`My_Pkg.x` → `My-Pkg-x`) and matched case-insensitively, so any spelling finds them.
import type { PackageRow, PackageVersionRow, UserRow } from '../../db/schema/index.js';
import { BadRequest, Conflict, NotFound } from '../errors.js';
import type { FileView, PackageService, Spooled } from './packages.js';

const nameShape = /^(?:[a-z0-9]|[a-z0-9][a-z0-9._-]*[a-z0-9])$/i;
// PEP 440's versions, in the spelling Gitea accepts (normalized or not).
const versionShape = /^v?(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?(?:[-_.]?dev[-_.]?[0-9]*)?(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$/i;
const fileShape = /^[A-Za-z0-9][-_.+!A-Za-z0-9]*$/;

/** PEP 503's normalized name (lower case), what the simple index is addressed by. */
export const normalizedPypiName = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');
/** The name as kept: separators normalized, case as uploaded (Gitea's). */
const keptName = (name: string): string => name.replace(/[-_.]+/g, '-');

/** The single-valued core metadata fields kept from an upload (twine's field names). */
const keptFields = ['author', 'author_email', 'maintainer', 'maintainer_email', 'summary', 'description', 'description_content_type', 'license', 'keywords', 'requires_python', 'metadata_version'] as const;
/** The multi-valued ones. */
const keptLists = ['classifiers', 'requires_dist', 'project_urls', 'provides_extra'] as const;

export interface PypiUpload {
  /** The form fields, each with every value sent. */
  fields: Map<string, string[]>;
  filename: string;
  spooled: Spooled;
}

export interface PypiVersionFiles {
  version: PackageVersionRow;
  files: FileView[];
}

export class PypiPackages {
  constructor(private readonly packages: PackageService) {}

  /** `twine upload`: one file into its version (made when new). */
  async upload(owner: UserRow, actor: UserRow, u: PypiUpload): Promise<void> {
    const one = (k: string) => u.fields.get(k)?.[0] ?? '';
    try {
      const action = one(':action');
      if (action && action !== 'file_upload') throw new BadRequest(`unsupported action ${action}`);
      if (one('sha256_digest').toLowerCase() !== u.spooled.sha256) throw new BadRequest('hash mismatch');
      if (one('md5_digest') && one('md5_digest').toLowerCase() !== u.spooled.md5) throw new BadRequest('hash mismatch');
      const name = one('name').trim();
      const version = one('version').trim();
      if (name.length > 255 || !nameShape.test(name) || version.length > 255 || !versionShape.test(version)) throw new BadRequest('invalid name or version');
      if (u.filename.length > 255 || !fileShape.test(u.filename)) throw new BadRequest('invalid file name');
      const metadata: Record<string, unknown> = {};
      for (const k of keptFields) if (one(k)) metadata[k] = one(k);
      for (const k of keptLists) {
        const values = (u.fields.get(k) ?? []).filter((v) => v !== '');
        if (values.length) metadata[k] = values;
      }
      const home = one('home_page');
      if (/^https?:\/\/[^\s]+$/i.test(home)) metadata.project_url = home;
      await this.packages.publish(owner, actor, {
        type: 'pypi', name: keptName(name), version, metadata, files: [{ name: u.filename, spooled: u.spooled, isLead: true }], addToExisting: true,
      }).catch((err: unknown) => {
        if (err instanceof Conflict) throw new Conflict('package file already exists');
        throw err;
      });
    } finally {
      await this.packages.discard([u]);
    }
  }

  /** Every version of the project with its files, oldest first (the simple index); 404 when there is none. */
  async project(ownerId: number, name: string): Promise<{ pkg: PackageRow; versions: PypiVersionFiles[] }> {
    if (name.length > 255 || !nameShape.test(name)) throw new NotFound();
    const pkg = await this.packages.findPackage(ownerId, 'pypi', keptName(name));
    if (!pkg) throw new NotFound('package does not exist');
    const versions = await this.packages.versionsOf(pkg.id);
    if (!versions.length) throw new NotFound('package does not exist');
    return { pkg, versions: await Promise.all(versions.map(async (version) => ({ version, files: await this.packages.files(version.id) }))) };
  }

  /** One file of a version. */
  async file(ownerId: number, name: string, version: string, filename: string): Promise<FileView> {
    if (!nameShape.test(name)) throw new NotFound();
    const found = await this.packages.findVersion(ownerId, 'pypi', keptName(name), version);
    const file = found && (await this.packages.file(found.version.id, filename));
    if (!file) throw new NotFound('package file does not exist');
    return file;
  }
}
