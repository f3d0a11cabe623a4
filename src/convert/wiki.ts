import type { components } from '../../generated/openapi.js';
import type { CommitData } from '../git/objects.js';
import type { WikiPageMeta, WikiPageView } from '../services/repos/wiki.js';
import { commitUser } from './commit.js';

type Schemas = components['schemas'];

/** Gitea's WikiCommit: the committer's key is spelled `commiter`. */
export function toWikiCommit(c: CommitData): Schemas['WikiCommit'] {
  return { sha: c.id, author: commitUser(c.author), commiter: commitUser(c.committer), message: c.message };
}

export function toWikiPage(page: WikiPageView, repoHtml: string): Schemas['WikiPage'] {
  return {
    title: page.title,
    html_url: `${repoHtml}/wiki/${page.webPath}`,
    sub_url: page.webPath,
    last_commit: toWikiCommit(page.lastCommit),
    content_base64: page.content.toString('base64'),
    commit_count: page.commitCount,
    sidebar: page.sidebar?.toString('base64') ?? '',
    footer: page.footer?.toString('base64') ?? '',
  };
}

export function toWikiPageMeta(page: WikiPageMeta, repoHtml: string): Schemas['WikiPageMetaData'] {
  return { title: page.title, html_url: `${repoHtml}/wiki/${page.webPath}`, sub_url: page.webPath, last_commit: toWikiCommit(page.lastCommit) };
}
