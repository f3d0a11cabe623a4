// Packages as Gitea's API shows them: a Package is one version of a package, with its owner, its
// creator (the ghost when the account is gone), the linked repository the caller may see, and its page.
import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { FileView, VersionView } from '../services/packages/packages.js';
import { ghost } from './ghost.js';
import { toRepository } from './repo.js';
import { iso } from './time.js';
import { toUser } from './user.js';

type ApiPackage = components['schemas']['Package'];
type ApiPackageFile = components['schemas']['PackageFile'];

export function toPackage(v: VersionView, viewer: UserRow | null, config: Config): ApiPackage {
  const seg = encodeURIComponent;
  return {
    id: v.version.id,
    owner: toUser(v.owner, viewer, config),
    repository: v.repo ? toRepository(v.repo.repo, v.repo.owner, v.repo.perm, viewer, config) : null,
    creator: toUser(v.creator ?? ghost, viewer, config),
    type: v.pkg.type,
    name: v.pkg.name,
    version: v.version.version,
    html_url: `${config.rootUrl}${seg(v.owner.name)}/-/packages/${seg(v.pkg.type)}/${seg(v.pkg.name)}/${seg(v.version.version)}`,
    created_at: iso(v.version.createdAt),
  };
}

export function toPackageFile(f: FileView): ApiPackageFile {
  return { id: f.file.id, Size: f.blob.size, name: f.file.name, md5: f.blob.md5, sha1: f.blob.sha1, sha256: f.blob.sha256, sha512: f.blob.sha512 };
}
