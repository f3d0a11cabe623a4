import type { components } from '../../generated/openapi.js';
import type { ContentEntry, IssueConfig, IssueTemplate } from '../services/git/contents.js';
import { parsePointer } from '../git/lfsPointer.js';
import { iso } from './time.js';
import { escapePath } from './repo.js';

type ApiContents = components['schemas']['ContentsResponse'];

function kind(entry: ContentEntry['entry']): ApiContents['type'] {
  if (entry.type === 'tree') return 'dir';
  if (entry.type === 'commit') return 'submodule';
  return entry.mode === '120000' ? 'symlink' : 'file';
}

/**
 * A submodule's URL from `.gitmodules` as an absolute URI: relative ones (`../lib.git`) resolve against
 * this repository's clone URL as git resolves them, scp-like ones (`git@host:path`) become ssh:// URLs;
 * anything else that is no URL is left out.
 */
function submoduleUri(url: string | undefined, repoHtml: string): string | null {
  if (!url) return null;
  try {
    if (url.startsWith('./') || url.startsWith('../')) return new URL(url, `${repoHtml}.git/`).toString();
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return new URL(url).toString();
    // git's scp-like syntax: a colon before any slash, no scheme.
    const scp = /^(?:([^@/:]+)@)?([^/:]+):\/?(.+)$/.exec(url);
    return scp ? new URL(`ssh://${scp[1] ? `${scp[1]}@` : ''}${scp[2]}/${scp[3]}`).toString() : null;
  } catch {
    return null;
  }
}

/** One file, directory entry, symlink or submodule, as Gitea's contents API shows it at `ref`. */
export function toContents(e: ContentEntry, urls: { html: string; api: string }, ref: string, opts: { commitMessage?: boolean } = {}): ApiContents {
  const { entry } = e;
  const type = kind(entry);
  const path = escapePath(entry.path);
  const refq = encodeURIComponent(ref);
  const self = `${urls.api}/contents/${path}?ref=${refq}`;
  const gitUrl = type === 'dir' ? `${urls.api}/git/trees/${entry.id}` : type === 'submodule' ? null : `${urls.api}/git/blobs/${entry.id}`;
  const html = type === 'submodule' ? null : `${urls.html}/src/${refq}/${path}`;
  const body: ApiContents = {
    name: entry.path.split('/').pop()!,
    path: entry.path,
    sha: entry.id,
    type,
    size: entry.size,
    encoding: type === 'file' && e.data ? 'base64' : null,
    content: type === 'file' && e.data ? e.data.toString('base64') : null,
    target: type === 'symlink' && e.data ? e.data.toString('utf8') : null,
    url: self,
    html_url: html,
    git_url: gitUrl,
    download_url: type === 'file' ? `${urls.html}/raw/${refq}/${path}` : null,
    submodule_git_url: type === 'submodule' ? submoduleUri(e.submoduleUrl, urls.html) : null,
    _links: { self, git: gitUrl, html },
  };
  // As Gitea: a file whose content is read and is a valid LFS pointer names the object (whether or not
  // the repository holds it); its content stays the pointer's and download_url stays the raw one.
  const pointer = type === 'file' && e.data ? parsePointer(e.data) : undefined;
  if (pointer) {
    body.lfs_oid = pointer.oid;
    body.lfs_size = pointer.size;
  }
  if (e.lastCommit) {
    body.last_commit_sha = e.lastCommit.id;
    if (opts.commitMessage ?? true) body.last_commit_message = e.lastCommit.message;
    body.last_author_date = iso(e.lastCommit.author.date);
    body.last_committer_date = iso(e.lastCommit.committer.date);
  }
  return body;
}

/** contents-ext's answer: exactly one of `file_contents` and `dir_contents`; the last commit's message only when asked for. */
export function toContentsExt(
  found: { ref: string; file?: ContentEntry; list?: ContentEntry[] }, urls: { html: string; api: string }, commitMessage: boolean,
): components['schemas']['ContentsExtResponse'] {
  const opts = { commitMessage };
  return found.file
    ? { file_contents: toContents(found.file, urls, found.ref, opts) }
    : { dir_contents: (found.list ?? []).map((e) => toContents(e, urls, found.ref, opts)) };
}

/** file-contents' answer: each entry with its content, `null` where nothing was found. */
export function toFileContentsList(found: { ref: string; entries: Array<ContentEntry | null> }, urls: { html: string; api: string }): Array<ApiContents | null> {
  return found.entries.map((e) => (e ? toContents(e, urls, found.ref) : null));
}

/** A repository's issue config as Gitea's IssueConfig. */
export function toIssueConfig(c: IssueConfig): components['schemas']['IssueConfig'] {
  return { blank_issues_enabled: c.blankIssuesEnabled, contact_links: c.contactLinks.map((l) => ({ name: l.name, url: l.url, about: l.about })) };
}

/** Whether the issue config is valid, and why not. */
export function toIssueConfigValidation(error: string | undefined): components['schemas']['IssueConfigValidation'] {
  return { valid: error === undefined, message: error ?? '' };
}

/** An issue template as Gitea's IssueTemplate. */
export function toIssueTemplate(t: IssueTemplate): components['schemas']['IssueTemplate'] {
  return {
    name: t.name, title: t.title, about: t.about, labels: t.labels, assignees: t.assignees, ref: t.ref, content: t.content,
    body: t.body.map((f) => ({ type: f.type, id: f.id, attributes: f.attributes, validations: f.validations, visible: f.visible })),
    file_name: t.fileName,
  };
}
