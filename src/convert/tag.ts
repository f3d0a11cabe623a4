import type { components } from '../../generated/openapi.js';
import type { TagData } from '../git/objects.js';
import type { TagTip } from '../git/tag.js';
import type { CommitVerification } from '../services/keys/verification.js';
import { commitUser, toVerification } from './commit.js';
import { iso } from './time.js';

type ApiAnnotatedTag = components['schemas']['AnnotatedTag'];

export function toAnnotatedTag(tag: TagData, repoApi: string, verification?: CommitVerification): ApiAnnotatedTag {
  const kind = tag.type === 'tag' ? 'tags' : tag.type === 'tree' ? 'trees' : tag.type === 'blob' ? 'blobs' : 'commits';
  return {
    tag: tag.tag,
    sha: tag.id,
    url: `${repoApi}/git/tags/${tag.id}`,
    message: tag.message,
    tagger: commitUser(tag.tagger),
    object: { type: tag.type, url: `${repoApi}/git/${kind}/${tag.object}`, sha: tag.object },
    verification: toVerification(verification),
  };
}

type ApiTag = components['schemas']['Tag'];

export function toTag(t: TagTip, urls: { html: string; api: string }): ApiTag {
  return {
    name: t.name,
    message: t.message.trim(),
    id: t.id,
    // Gitea builds the URL from the tag's id (the tag object's for an annotated tag), not the commit's.
    commit: { url: `${urls.api}/git/commits/${t.id}`, sha: t.commit, created: iso(t.date) },
    zipball_url: `${urls.html}/archive/${encodeURIComponent(t.name)}.zip`,
    tarball_url: `${urls.html}/archive/${encodeURIComponent(t.name)}.tar.gz`,
  };
}
