// Releases as Gitea shows them. The publisher is shown as Gitea's ToUser(publisher, nil) does: to no one
// in particular, so the e-mail address is always the no-reply placeholder.
import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { AttachmentRow, ReleaseRow, UserRow } from '../db/schema/index.js';
import { toAttachment } from './attachment.js';
import { ghost } from './ghost.js';
import { iso, isoOrNull } from './time.js';
import { toUser } from './user.js';

type ApiRelease = components['schemas']['Release'];

/** A tag name in a URL path: each segment escaped, the slashes kept (Gitea's PathEscapeSegments). */
const segments = (name: string) => name.split('/').map(encodeURIComponent).join('/');

export function toRelease(
  r: ReleaseRow, publisher: UserRow | undefined, assets: AttachmentRow[], urls: { html: string; api: string }, config: Config,
): ApiRelease {
  const api = `${urls.api}/releases/${r.id}`;
  const tag = segments(r.tagName);
  return {
    id: r.id,
    tag_name: r.tagName,
    target_commitish: r.target,
    name: r.title,
    body: r.note,
    url: api,
    html_url: `${urls.html}/releases/tag/${tag}`,
    tarball_url: `${urls.html}/archive/${tag}.tar.gz`,
    zipball_url: `${urls.html}/archive/${tag}.zip`,
    upload_url: `${api}/assets`,
    draft: r.isDraft,
    prerelease: r.isPrerelease,
    created_at: iso(r.createdAt),
    published_at: r.isDraft ? null : isoOrNull(r.publishedAt ?? r.createdAt),
    author: toUser(publisher ?? ghost, null, config),
    assets: assets.map((a) => toAttachment(a, config)),
  };
}
