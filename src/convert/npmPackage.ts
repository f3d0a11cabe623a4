// npm's package document (the "packument") as Gitea's registry serves it: every version's package.json
// fields with `dist` (the tarball's URL, sha512 integrity, sha1 shasum), the dist-tags and the times; and
// `npm search`'s answer.
import type { PackageRow, PackageVersionRow, UserRow } from '../db/schema/index.js';
import type { FileView } from '../services/packages/packages.js';
import { iso } from './time.js';

/** A version's dist-tags as kept in its metadata. */
export const tagsOf = (v: PackageVersionRow): string[] => {
  const t = v.metadata['dist-tags'];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
};

/** The registry's URL of a name, `@scope/name` kept readable with its slash escaped (as npm sends it). */
export const npmNamePath = (name: string): string => encodeURIComponent(name).replace(/^%40/, '@');

export function toNpmDocument(registry: string, pkg: PackageRow, versions: { version: PackageVersionRow; lead: FileView | undefined }[]): Record<string, unknown> {
  const distTags: Record<string, string> = {};
  const docVersions: Record<string, unknown> = {};
  const time: Record<string, string> = {};
  let newest: PackageVersionRow | undefined;
  for (const { version: v, lead } of versions) {
    for (const t of tagsOf(v)) distTags[t] = v.version;
    const { 'dist-tags': _tags, ...meta } = v.metadata;
    void _tags;
    docVersions[v.version] = {
      ...meta,
      name: pkg.name,
      version: v.version,
      _id: `${pkg.name}@${v.version}`,
      dist: lead
        ? {
            tarball: `${registry}${npmNamePath(pkg.name)}/-/${encodeURIComponent(v.version)}/${encodeURIComponent(lead.file.name)}`,
            integrity: `sha512-${Buffer.from(lead.blob.sha512, 'hex').toString('base64')}`,
            shasum: lead.blob.sha1,
          }
        : undefined,
    };
    time[v.version] = iso(v.createdAt);
    newest = v;
  }
  if (!distTags.latest && newest) distTags.latest = newest.version;
  const latest = versions.find((x) => x.version.version === distTags.latest)?.version.metadata ?? {};
  return {
    _id: pkg.name,
    name: pkg.name,
    description: latest.description,
    'dist-tags': distTags,
    versions: docVersions,
    time: { created: iso(pkg.createdAt), modified: iso(newest!.createdAt), ...time },
    readme: latest.readme,
    homepage: latest.homepage,
    license: latest.license,
    repository: latest.repository,
    keywords: latest.keywords,
  };
}

/** `npm search`'s answer (`/-/v1/search`), as Gitea's: each package's newest version. */
export function toNpmSearch(registry: string, owner: UserRow, rows: { pkg: PackageRow; version: PackageVersionRow }[], total: number): Record<string, unknown> {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const author = (v: unknown) => (typeof v === 'string' ? v : text((v as { name?: unknown } | null)?.name));
  return {
    objects: rows.map(({ pkg, version: v }) => {
      const m = v.metadata;
      const scope = pkg.name.startsWith('@') ? pkg.name.slice(1, pkg.name.indexOf('/')) : 'unscoped';
      const repository = typeof m.repository === 'string' ? m.repository : text((m.repository as { url?: unknown } | null)?.url);
      return {
        package: {
          scope,
          name: pkg.name,
          version: v.version,
          date: iso(v.createdAt),
          description: text(m.description),
          author: { name: author(m.author) },
          publisher: { name: owner.name, username: owner.name },
          maintainers: [],
          ...(Array.isArray(m.keywords) ? { keywords: m.keywords.filter((k): k is string => typeof k === 'string') } : {}),
          links: { npm: `${registry}${npmNamePath(pkg.name)}`, ...(text(m.homepage) ? { homepage: text(m.homepage) } : {}), ...(repository ? { repository } : {}) },
        },
      };
    }),
    total,
  };
}
