// Files and directories of a commit: the contents API and raw downloads.
import { lastCommitFor, lsTree, readBlob, readCommit, submoduleUrls, type CommitData, type TreeEntry } from '../../git/objects.js';
import { allRefNames, resolveCommit } from '../../git/refs.js';
import { parse as parseYaml } from 'yaml';
import { canRead } from '../../permissions/repo.js';
import type { BranchService } from './branches.js';
import { BadRequest, NotFound } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

export interface ContentEntry {
  entry: TreeEntry;
  /** Whole file bytes (files and symlinks only, in single-file answers). */
  data?: Buffer;
  lastCommit?: CommitData;
  /** A submodule's repository URL from `.gitmodules`. */
  submoduleUrl?: string;
}

/** What `contents-ext` adds to an entry's metadata (its `includes`). */
export interface ContentsExtIncludes {
  fileContent: boolean;
  lfsMetadata: boolean;
  commitMetadata: boolean;
  commitMessage: boolean;
}

/** `file-contents`: at most this many entries (Gitea's API.DEFAULT_PAGING_NUM)… */
export const fileContentsMaxFiles = 30;
/** …no more once the contents reach this many bytes (API.DEFAULT_MAX_RESPONSE_SIZE)… */
export const fileContentsMaxBytes = 50 * 1024 * 1024;
/** …and a blob larger than this comes without its content (API.DEFAULT_MAX_BLOB_SIZE). */
export const fileContentsMaxBlob = 10 * 1024 * 1024;

/** Gitea's `includes` of contents-ext: comma-separated options, empty ones skipped, unknown ones a 400. */
export function parseContentsIncludes(raw: string | undefined): ContentsExtIncludes {
  const out: ContentsExtIncludes = { fileContent: false, lfsMetadata: false, commitMetadata: false, commitMessage: false };
  for (const opt of (raw ?? '').split(',')) {
    if (opt === '') continue;
    if (opt === 'file_content') out.fileContent = true;
    else if (opt === 'lfs_metadata') out.lfsMetadata = true;
    else if (opt === 'commit_metadata') out.commitMetadata = true;
    else if (opt === 'commit_message') out.commitMessage = true;
    else throw new BadRequest(`unknown include option "${opt}"`);
  }
  return out;
}

export interface ContentsResult {
  ref: string;
  commit: string;
  /** A directory's entries, or undefined for a single file. */
  list?: ContentEntry[];
  file?: ContentEntry;
}

/** Repository-relative path without leading/trailing slashes; `..` and empty segments never match anything. */
function cleanPath(path: string): string | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '..' || p === '.' || p.includes('\0'))) return undefined;
  return parts.join('/');
}

export class ContentService {
  constructor(private readonly branches: BranchService) {}

  private async locate(loaded: LoadedRepo, rawPath: string, ref?: string) {
    if (!canRead(loaded.perm, 'repo.code') || loaded.repo.isEmpty) throw new NotFound();
    const path = cleanPath(rawPath);
    if (path === undefined) throw new NotFound();
    const dir = this.branches.dir(loaded);
    const refName = ref || loaded.repo.defaultBranch;
    const commit = await resolveCommit(dir, refName);
    if (!commit) throw new NotFound();
    return { dir, path, refName, commit };
  }

  async get(loaded: LoadedRepo, rawPath: string, ref?: string): Promise<ContentsResult> {
    const { dir, path, refName, commit } = await this.locate(loaded, rawPath, ref);
    const self = path ? (await lsTree(dir, commit, path, { self: true })).find((e) => e.path === path) : undefined;
    if (path && !self) throw new NotFound();
    if (!self || self.type === 'tree') {
      const entries = await lsTree(dir, commit, path);
      const urls = entries.some((e) => e.type === 'commit') ? await submoduleUrls(dir, commit) : new Map<string, string>();
      return { ref: refName, commit, list: entries.map((entry) => ({ entry, submoduleUrl: urls.get(entry.path) })) };
    }
    const data = self.type === 'blob' ? await readBlob(dir, self.id) : undefined;
    const submoduleUrl = self.type === 'commit' ? (await submoduleUrls(dir, commit)).get(path) : undefined;
    const last = await lastCommitFor(dir, commit, path);
    return { ref: refName, commit, file: { entry: self, data, submoduleUrl, lastCommit: last ? await readCommit(dir, last) : undefined } };
  }

  /**
   * `contents-ext`: a file, symlink or submodule alone (its content only when asked for, its last commit
   * with `commit_metadata`/`commit_message`), or a directory's entries (metadata, and each entry's last
   * commit when asked for). `.` is the root.
   */
  async ext(loaded: LoadedRepo, rawPath: string, ref: string | undefined, inc: ContentsExtIncludes): Promise<ContentsResult> {
    const wantCommit = inc.commitMetadata || inc.commitMessage;
    const path = rawPath === '.' ? '' : rawPath;
    const at = await this.locate(loaded, path, ref);
    const self = at.path ? (await lsTree(at.dir, at.commit, at.path, { self: true })).find((e) => e.path === at.path) : undefined;
    if (at.path && !self) throw new NotFound();
    if (!self || self.type === 'tree') {
      const entries = await lsTree(at.dir, at.commit, at.path);
      const urls = entries.some((e) => e.type === 'commit') ? await submoduleUrls(at.dir, at.commit) : new Map<string, string>();
      const list: ContentEntry[] = [];
      for (const entry of entries) {
        const last = wantCommit ? await lastCommitFor(at.dir, at.commit, entry.path) : undefined;
        list.push({ entry, submoduleUrl: urls.get(entry.path), lastCommit: last ? await readCommit(at.dir, last) : undefined });
      }
      return { ref: at.refName, commit: at.commit, list };
    }
    return { ref: at.refName, commit: at.commit, file: await this.single(at.dir, at.commit, self, { content: inc.fileContent, commit: wantCommit }) };
  }

  /** One entry with what was asked for: a file's bytes (up to `maxBlob`), a symlink's target, a submodule's URL, the last commit. */
  private async single(dir: string, commit: string, self: TreeEntry, want: { content: boolean; commit: boolean; maxBlob?: number }): Promise<ContentEntry> {
    const isLink = self.type === 'blob' && self.mode === '120000';
    const readData = self.type === 'blob' && (isLink || (want.content && self.size <= (want.maxBlob ?? Infinity)));
    const data = readData ? await readBlob(dir, self.id) : undefined;
    const submoduleUrl = self.type === 'commit' ? (await submoduleUrls(dir, commit)).get(self.path) : undefined;
    const last = want.commit ? await lastCommitFor(dir, commit, self.path) : undefined;
    return { entry: self, data, submoduleUrl, lastCommit: last ? await readCommit(dir, last) : undefined };
  }

  /**
   * `file-contents`: each path's entry with its content and last commit, `null` where nothing is there (or
   * the path is no valid one), in the order asked; at most `fileContentsMaxFiles` entries, none more once the
   * contents reach `fileContentsMaxBytes`, and blobs over `fileContentsMaxBlob` without their content.
   */
  async files(loaded: LoadedRepo, paths: string[], ref?: string): Promise<{ ref: string; entries: Array<ContentEntry | null> }> {
    const at = await this.locate(loaded, '', ref);
    const entries: Array<ContentEntry | null> = [];
    let bytes = 0;
    for (const raw of paths) {
      const path = cleanPath(raw);
      const self = path ? (await lsTree(at.dir, at.commit, path, { self: true })).find((e) => e.path === path) : undefined;
      const found = self ? await this.single(at.dir, at.commit, self, { content: true, commit: true, maxBlob: fileContentsMaxBlob }) : null;
      if (found?.data && found.entry.mode !== '120000') bytes += Math.ceil(found.data.length / 3) * 4;
      if (bytes > fileContentsMaxBytes) break;
      entries.push(found);
      if (entries.length === fileContentsMaxFiles) break;
    }
    return { ref: at.refName, entries };
  }

  /**
   * The EditorConfig properties the root `.editorconfig` at `ref` gives the file `rawPath` (as Gitea, only the
   * root file is read), computed by the EditorConfig core library; `{}` when no section applies. Not found
   * when the repository has no `.editorconfig` there.
   */
  async editorConfig(loaded: LoadedRepo, rawPath: string, ref?: string): Promise<Record<string, string | number | boolean>> {
    const at = await this.locate(loaded, rawPath, ref);
    if (!at.path) throw new NotFound();
    const config = (await lsTree(at.dir, at.commit, '.editorconfig', { self: true })).find((e) => e.path === '.editorconfig' && e.type === 'blob');
    if (!config) throw new NotFound();
    const contents = await readBlob(at.dir, config.id);
    // A virtual root: the library is given the one file, and reads nothing from the disk.
    const root = '/__anvil_repository__';
    // Loaded on first use: the library instantiates a wasm module, which no other request needs.
    const { parseFromFiles } = await import('editorconfig');
    const props = await parseFromFiles(`${root}/${at.path}`, Promise.resolve([{ name: `${root}/.editorconfig`, contents }]), { root, unset: true });
    const out: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(props)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    return out;
  }

  /**
   * The SPDX identifiers of the licenses in the license files at the root of the default branch, sorted:
   * as the statistics job (repos/repoStats.ts) last stored them after a push, never detected here.
   */
  licenses(loaded: LoadedRepo): string[] {
    if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
    return [...loaded.repo.licenses].sort();
  }

  /**
   * The default branch's issue config (Gitea's candidates in order, `.yaml` before `.yml`) and, when the
   * file is not valid, why; with no file (or an empty repository) the default config. As Gitea, an invalid
   * file gives the default config too.
   */
  async issueConfig(loaded: LoadedRepo): Promise<{ config: IssueConfig; error?: string }> {
    if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
    const fallback = (): IssueConfig => ({ blankIssuesEnabled: true, contactLinks: [] });
    if (loaded.repo.isEmpty) return { config: fallback() };
    const dir = this.branches.dir(loaded);
    const commit = await resolveCommit(dir, `refs/heads/${loaded.repo.defaultBranch}`);
    if (!commit) return { config: fallback() };
    const paths = issueConfigCandidates.flatMap((p) => [`${p}.yaml`, `${p}.yml`]);
    const found = new Map<string, TreeEntry>();
    for (const folder of new Set(paths.map((p) => p.slice(0, p.lastIndexOf('/'))))) {
      for (const e of await lsTree(dir, commit, folder)) if (e.type === 'blob') found.set(e.path, e);
    }
    const file = paths.map((p) => found.get(p)).find(Boolean);
    if (!file) return { config: fallback() };
    const checked = checkIssueConfig((await readBlob(dir, file.id)).toString('utf8'));
    return 'error' in checked ? { config: fallback(), error: checked.error } : { config: checked };
  }

  /**
   * The valid issue templates of the default branch, from Gitea's folders in order, each folder's files in
   * name order; invalid ones are left out, as in Gitea. None in an empty repository.
   */
  async issueTemplates(loaded: LoadedRepo): Promise<IssueTemplate[]> {
    if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
    if (loaded.repo.isEmpty) return [];
    const dir = this.branches.dir(loaded);
    const commit = await resolveCommit(dir, `refs/heads/${loaded.repo.defaultBranch}`);
    if (!commit) return [];
    const out: IssueTemplate[] = [];
    for (const folder of issueTemplateFolders) {
      const files = (await lsTree(dir, commit, folder)).filter((e) => e.type === 'blob' && /\.(md|ya?ml)$/i.test(e.path) && !/\/config\.ya?ml$/i.test(e.path));
      files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      for (const f of files) {
        const t = parseIssueTemplate(f.path, (await readBlob(dir, f.id)).toString('utf8'));
        if (t) out.push(t);
      }
    }
    return out;
  }

  /**
   * Gitea's legacy `{ref}/{filepath}` form, read when no `ref` is given: the shortest leading run of
   * segments that names a branch, else a tag, else a full commit id; undefined when none does.
   */
  private legacyRef(loaded: LoadedRepo, rawPath: string): Promise<{ ref: string; path: string } | undefined> {
    return this.splitRef(loaded, 'any', rawPath);
  }

  /**
   * A web path's `{ref}/{filepath}` split as Gitea's pages split it: for a branch or a tag the shortest
   * leading run of segments that names one (`any`: a branch, else a tag, else a commit), for a commit a
   * full or abbreviated id as the first segment; undefined when nothing matches (or the caller may not read the code).
   */
  async splitRef(loaded: LoadedRepo, kind: 'branch' | 'tag' | 'commit' | 'any', rawPath: string): Promise<{ ref: string; path: string } | undefined> {
    if (!canRead(loaded.perm, 'repo.code') || loaded.repo.isEmpty) return undefined; // locate answers 404
    const parts = rawPath.split('/');
    if (kind !== 'commit') {
      const refs = new Set(await allRefNames(this.branches.dir(loaded)));
      const kinds = kind === 'branch' ? ['heads'] : kind === 'tag' ? ['tags'] : ['heads', 'tags'];
      for (const k of kinds) {
        for (let i = 1; i <= parts.length; i++) {
          const ref = parts.slice(0, i).join('/');
          if (refs.has(`refs/${k}/${ref}`)) return { ref: kind === 'tag' ? `refs/tags/${ref}` : ref, path: parts.slice(i).join('/') };
        }
      }
      if (kind !== 'any') return undefined;
    }
    const [head = '', ...rest] = parts;
    const pattern = kind === 'commit' ? /^[0-9a-f]{7,64}$/ : /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
    return pattern.test(head) ? { ref: head, path: rest.join('/') } : undefined;
  }

  /** A file's bytes; directories and submodules are 404. */
  async raw(loaded: LoadedRepo, rawPath: string, ref?: string): Promise<{ name: string; id: string; data: Buffer }> {
    const legacy = ref ? undefined : await this.legacyRef(loaded, rawPath);
    const { dir, path, commit } = await this.locate(loaded, legacy?.path ?? rawPath, legacy?.ref ?? ref);
    if (!path) throw new NotFound();
    const self = (await lsTree(dir, commit, path, { self: true })).find((e) => e.path === path);
    if (!self || self.type !== 'blob') throw new NotFound();
    return { name: path.split('/').pop()!, id: self.id, data: await readBlob(dir, self.id) };
  }
}

/**
 * file-contents' GET form: the POST body as JSON in the `body` query parameter, `{"files": [...]}`; anything
 * else (not JSON, not an object, `files` not a list of strings or longer than the POST body allows) is 400.
 */
export function filesOptionsFromQuery(body: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new BadRequest('invalid body parameter');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new BadRequest('invalid body parameter');
  const files = (parsed as { files?: unknown }).files;
  if (files === undefined || files === null) return [];
  if (!Array.isArray(files) || files.length > 1000 || !files.every((f) => typeof f === 'string')) throw new BadRequest('invalid body parameter');
  return files as string[];
}

/** Where Gitea looks for the issue config, in order (each with `.yaml`, then `.yml`). */
const issueConfigCandidates = ['.gitea/ISSUE_TEMPLATE/config', '.gitea/issue_template/config', '.github/ISSUE_TEMPLATE/config', '.github/issue_template/config'];

export interface IssueConfig {
  blankIssuesEnabled: boolean;
  contactLinks: Array<{ name: string; url: string; about: string }>;
}

/** An absolute URL, or a path from the root (Go's url.ParseRequestURI accepts both). */
function isRequestUri(u: string): boolean {
  if (u.startsWith('/')) return !/\s/.test(u);
  return /^[a-z][a-z0-9+.-]*:\S+$/i.test(u);
}

/** An issue config file's text, checked as Gitea checks it; the config, or what is wrong (Gitea's wording where it has one). */
export function checkIssueConfig(text: string): IssueConfig | { error: string } {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    return { error: `yaml: ${(e as Error).message.split('\n')[0]}` };
  }
  if (doc === null || doc === undefined) return { blankIssuesEnabled: true, contactLinks: [] };
  if (typeof doc !== 'object' || Array.isArray(doc)) return { error: 'yaml: the config must be a mapping' };
  const o = doc as Record<string, unknown>;
  const blank = o.blank_issues_enabled ?? true;
  if (typeof blank !== 'boolean') return { error: 'yaml: blank_issues_enabled must be a boolean' };
  const rawLinks = o.contact_links ?? [];
  if (!Array.isArray(rawLinks)) return { error: 'yaml: contact_links must be a list' };
  const contactLinks: IssueConfig['contactLinks'] = [];
  for (const [i, raw] of rawLinks.entries()) {
    const link = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const field = (k: string) => (typeof link[k] === 'string' ? (link[k] as string) : link[k] === undefined || link[k] === null ? '' : String(link[k]));
    const [name, url, about] = [field('name'), field('url'), field('about')];
    if (!name) return { error: `contact_link at position ${i + 1} is missing name key` };
    if (!url) return { error: `contact_link at position ${i + 1} is missing url key` };
    if (!about) return { error: `contact_link at position ${i + 1} is missing about key` };
    if (!isRequestUri(url)) return { error: `${url} is not a valid URL` };
    contactLinks.push({ name, url, about });
  }
  return { blankIssuesEnabled: blank, contactLinks };
}

/** Where Gitea looks for issue templates, in order. */
const issueTemplateFolders = [
  'ISSUE_TEMPLATE', 'issue_template', '.gitea/ISSUE_TEMPLATE', '.gitea/issue_template',
  '.github/ISSUE_TEMPLATE', '.github/issue_template', '.gitlab/ISSUE_TEMPLATE', '.gitlab/issue_template',
];

export interface IssueFormField {
  type: 'markdown' | 'textarea' | 'input' | 'dropdown' | 'checkboxes';
  id: string;
  attributes: Record<string, unknown>;
  validations: Record<string, unknown>;
  visible: Array<'form' | 'content'>;
}

export interface IssueTemplate {
  name: string;
  title: string;
  about: string;
  labels: string[];
  assignees: string[];
  ref: string;
  content: string;
  body: IssueFormField[];
  fileName: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
/** Gitea's IssueTemplateStringSlice: a list, or one comma-separated string; blanks dropped. */
const strList = (v: unknown): string[] =>
  (Array.isArray(v) ? v.map(str) : typeof v === 'string' ? v.split(',') : []).map((x) => x.trim()).filter(Boolean);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One field of an issue form, or undefined when it is not valid (Gitea's rules, in short). */
function formField(raw: unknown, ids: Set<string>): IssueFormField | undefined {
  if (!isObj(raw)) return undefined;
  const type = raw.type;
  if (type !== 'markdown' && type !== 'textarea' && type !== 'input' && type !== 'dropdown' && type !== 'checkboxes') return undefined;
  const attributes = isObj(raw.attributes) ? raw.attributes : {};
  const validations = isObj(raw.validations) ? raw.validations : {};
  const id = str(raw.id);
  if (type === 'markdown') {
    if (!str(attributes.value)) return undefined;
  } else {
    if (!id || ids.has(id) || !/^[A-Za-z0-9_-]+$/.test(id) || !str(attributes.label)) return undefined;
    ids.add(id);
  }
  if (type === 'dropdown' && (!Array.isArray(attributes.options) || attributes.options.length === 0)) return undefined;
  if (type === 'checkboxes' && (!Array.isArray(attributes.options) || !attributes.options.every((o) => isObj(o) && str(o.label)))) return undefined;
  const asked = strList(raw.visible);
  if (asked.some((v) => v !== 'form' && v !== 'content')) return undefined;
  const visible = (asked.length ? asked : type === 'markdown' ? ['form'] : ['form', 'content']) as IssueFormField['visible'];
  return { type, id, attributes, validations, visible };
}

/** A template file: Markdown with front matter, or a YAML issue form; undefined when it is not a valid one. */
export function parseIssueTemplate(path: string, text: string): IssueTemplate | undefined {
  const fileName = path.split('/').pop()!;
  let meta: unknown;
  let content = '';
  let body: IssueFormField[] = [];
  try {
    if (/\.md$/i.test(path)) {
      const m = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)([\s\S]*)$/.exec(text);
      if (!m) return undefined;
      meta = parseYaml(m[1]!);
      content = m[2]!;
    } else {
      meta = parseYaml(text);
      if (!isObj(meta) || !Array.isArray(meta.body) || meta.body.length === 0) return undefined;
      const ids = new Set<string>();
      for (const f of meta.body) {
        const field = formField(f, ids);
        if (!field) return undefined;
        body.push(field);
      }
    }
  } catch {
    return undefined;
  }
  if (!isObj(meta)) return undefined;
  const name = str(meta.name).trim();
  const about = str(meta.about ?? meta.description).trim();
  if (!name || !about) return undefined;
  return { name, title: str(meta.title), about, labels: strList(meta.labels), assignees: strList(meta.assignees), ref: str(meta.ref), content, body, fileName };
}
