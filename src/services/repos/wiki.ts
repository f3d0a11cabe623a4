// The repository's wiki: Markdown pages in `<name>.wiki.git`, created with the first page and written
// without a work tree. Names follow Gitea (wikiNames.ts); writers to one wiki branch are serialised
// in-process and, across processes, by the ref's compare-and-swap (a loser rebuilds on the new tip).
import { randomUUID } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoRow, UserRow } from '../../db/schema/index.js';
import { commitFiles, type Signature } from '../../git/commit.js';
import { GitError } from '../../git/core.js';
import { initBare } from '../../git/init.js';
import { readBlob, readCommit, readDir, type CommitData } from '../../git/objects.js';
import { commitsTouching, entriesAt, lastCommitTouching } from '../../git/pathHistory.js';
import { wikiDir } from '../../git/paths.js';
import { deleteRef, headBranch, moveRef, refTarget } from '../../git/refs.js';
import { canRead, canWrite } from '../../permissions/repo.js';
import { withTx } from '../../db/tx.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import type { ServiceDeps } from '../context.js';
import { signatureOf } from '../identity.js';
import { BadRequest, Conflict, Forbidden, NotFound, RepoArchived } from '../errors.js';
import { isStdBase64 } from '../base64.js';
import { withKeyLock } from '../locks.js';
import type { LoadedRepo } from './loadedRepo.js';
import {
  gitPathToWebPath, goQuote, goTrimSpace, legacyGitPath, queryEscape, reservedSegment, userTitleToWebPath, webPathFromRequest,
  webPathToGitPath, webPathToUserTitle,
} from './wikiNames.js';
import type { CommitSigning } from '../keys/commitSigning.js';

export interface WikiPageView {
  /** The escaped web path (`sub_url`). */
  webPath: string;
  /** The file that holds it. */
  gitPath: string;
  title: string;
  content: Buffer;
  /** The last commit that touched the page's file. */
  lastCommit: CommitData;
  commitCount: number;
  /** `_Sidebar.md` and `_Footer.md`, when the wiki has them. */
  sidebar?: Buffer;
  footer?: Buffer;
}

/** A page as Gitea's WikiPageMetaData lists it. */
export interface WikiPageMeta {
  webPath: string;
  title: string;
  lastCommit: CommitData;
}

export interface CreateWikiPageInput {
  title?: string | null;
  contentBase64?: string | null;
  message?: string | null;
}

const attempts = 8;
const sidebarFile = '_Sidebar.md';
const footerFile = '_Footer.md';


/** The longest file name (bytes) common file systems hold. */
const WIKI_FILE_NAME_MAX = 255;

function decodeBase64(s: string): Buffer {
  // Go's base64.StdEncoding: padded standard alphabet; it skips CR and LF, and so do we.
  const compact = s.replace(/[\r\n]/g, '');
  if (!isStdBase64(compact)) throw new BadRequest('illegal base64 data in content_base64');
  return Buffer.from(compact, 'base64');
}

/** The files that may hold the page a request names: its git path, then Gitea's unescaped fallback. */
function candidatePaths(names: string[]): string[] {
  const primary = names.filter((n) => !n.includes('\0')).map((n) => webPathToGitPath(webPathFromRequest(n)));
  const legacy = primary.map((p) => (p === undefined ? undefined : legacyGitPath(p)));
  return [...new Set([...primary, ...legacy].filter((p): p is string => p !== undefined))];
}

export class WikiService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly signing: CommitSigning,
  ) {}

  dir(loaded: LoadedRepo): string {
    return wikiDir(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
  }

  /** Gitea's checks of a page title to write: the escaped web path and the top-level file it names. */
  private pageTarget(title: string): { webPath: string; gitPath: string } {
    if (goTrimSpace(title) === '') throw new BadRequest('wiki page title must not be empty');
    if (title.includes('\0')) throw new BadRequest('title and message must not contain NUL characters');
    // The page is a file named after the escaped title: a name longer than a file system's 255 bytes could
    // not be checked out of any clone of the wiki. (Checked on the title first: a longer title never fits.)
    if (title.length > WIKI_FILE_NAME_MAX) throw new BadRequest(`wiki page title is too long (its file name must fit in ${WIKI_FILE_NAME_MAX} bytes)`);
    const webPath = userTitleToWebPath(title);
    const reserved = reservedSegment(webPath);
    if (reserved !== undefined) throw new BadRequest(`wiki title is reserved: ${reserved}`);
    const gitPath = webPathToGitPath(webPath);
    // A query-escaped title has no slash: its page is always one top-level file of the wiki.
    if (!gitPath || gitPath.includes('/')) throw new BadRequest(`invalid wiki page title: ${title}`);
    if (Buffer.byteLength(gitPath) > WIKI_FILE_NAME_MAX) throw new BadRequest(`wiki page title is too long (its file name must fit in ${WIKI_FILE_NAME_MAX} bytes)`);
    return { webPath, gitPath };
  }

  private requireWriter(loaded: LoadedRepo): void {
    if (!canRead(loaded.perm, 'repo.wiki')) throw new NotFound();
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (!canWrite(loaded.perm, 'repo.wiki')) throw new Forbidden('user should have a permission to write to a repo');
  }

  async createPage(loaded: LoadedRepo, actor: UserRow, input: CreateWikiPageInput): Promise<WikiPageView> {
    this.requireWriter(loaded);
    const title = input.title ?? '';
    if (input.message?.includes('\0')) throw new BadRequest('title and message must not contain NUL characters');
    const { webPath, gitPath } = this.pageTarget(title);
    const content = decodeBase64(input.contentBase64 ?? '');
    const dir = this.dir(loaded);
    const id = await this.write(loaded, actor, 'created', webPath, input.message || `Add ${goQuote(title)}`, async (parent) => {
      // Gitea also counts a file named after the unescaped web path as the page.
      if (parent && (await entriesAt(dir, parent, [gitPath, `${webPath}.md`])).size) {
        throw new BadRequest(`wiki page already exists [title: ${gitPath}]`);
      }
      return { files: [{ path: gitPath, content }] };
    });
    return (await this.readPage(dir, id, [gitPath]))!;
  }

  /**
   * Gitea's EditWikiPage: new content and, with a `title` naming another page, a rename (the old file goes,
   * the new one must not exist yet). Omitted content keeps the page's; the message defaults to `Update …`.
   */
  async editPage(loaded: LoadedRepo, actor: UserRow, pageName: string, input: CreateWikiPageInput, rawPageName?: string): Promise<WikiPageView> {
    this.requireWriter(loaded);
    if (input.message?.includes('\0')) throw new BadRequest('title and message must not contain NUL characters');
    const current = await this.getPage(loaded, pageName, rawPageName);
    const title = input.title || current.title;
    const { webPath, gitPath } = this.pageTarget(title);
    const content = input.contentBase64 == null ? undefined : decodeBase64(input.contentBase64);
    const dir = this.dir(loaded);
    const id = await this.write(loaded, actor, 'edited', webPath, input.message || `Update ${goQuote(title)}`, async (parent) => {
      const old = parent ? await this.findPage(dir, parent, current.gitPath) : undefined;
      if (!old) throw new NotFound();
      if (old !== gitPath && parent && (await entriesAt(dir, parent, [gitPath, `${webPath}.md`])).size) {
        throw new BadRequest(`wiki page already exists [title: ${gitPath}]`);
      }
      const body = content ?? (await readBlob(dir, (await entriesAt(dir, parent!, [old])).get(old)!.id));
      return { files: [{ path: gitPath, content: body }], remove: old === gitPath ? [] : [old] };
    });
    return (await this.readPage(dir, id, [gitPath]))!;
  }

  /** Gitea's DeleteWikiPage: the page's file goes in a commit of its own. */
  async deletePage(loaded: LoadedRepo, actor: UserRow, pageName: string, rawPageName?: string): Promise<void> {
    this.requireWriter(loaded);
    const current = await this.getPage(loaded, pageName, rawPageName);
    const dir = this.dir(loaded);
    await this.write(loaded, actor, 'deleted', current.webPath, `Delete page ${goQuote(current.title)}`, async (parent) => {
      const old = parent ? await this.findPage(dir, parent, current.gitPath) : undefined;
      if (!old) throw new NotFound();
      return { files: [], remove: [old] };
    });
  }

  /** `path` when it is still a file in `commit`. */
  private async findPage(dir: string, commit: string, path: string): Promise<string | undefined> {
    return (await entriesAt(dir, commit, [path])).get(path)?.type === 'blob' ? path : undefined;
  }

  /**
   * One commit on the wiki's branch (made when missing) with what `change` says for the current tip, then
   * its `wiki` event; writers of one branch take turns in this process, and a branch moved by another
   * process is built on again. No page stands without its record: on failure the branch goes back.
   */
  private async write(
    loaded: LoadedRepo, actor: UserRow, action: 'created' | 'edited' | 'deleted', webPath: string, rawMessage: string,
    change: (parent: string | undefined) => Promise<{ files: Array<{ path: string; content: Buffer }>; remove?: string[] }>,
  ): Promise<string> {
    const { repo } = loaded;
    const message = rawMessage.endsWith('\n') ? rawMessage : `${rawMessage}\n`;
    const who: Signature = signatureOf(actor, this.deps.config);
    const dir = this.dir(loaded);
    const branch = (existsSync(dir) && (await headBranch(dir))) || repo.defaultBranch;
    const { id, parent } = await withKeyLock(`${dir}\0${branch}`, async () => {
      if (!existsSync(dir)) await this.init(dir, repo);
      for (let attempt = 0; attempt < attempts; attempt++) {
        const parent = await refTarget(dir, `refs/heads/${branch}`);
        const { files, remove } = await change(parent);
        try {
          const sign = await this.signing.signer('wiki', { actor, dir, parent });
          return { id: await commitFiles(dir, { branch, files, remove, message, author: who, parent, sign }), parent };
        } catch (err) {
          // Only a branch that moved under us is worth another try.
          if (!(err instanceof GitError) || (await refTarget(dir, `refs/heads/${branch}`)) === parent) throw err;
        }
      }
      throw new Conflict('the wiki kept changing while the page was written; try again');
    });
    try {
      await withTx(this.deps.db, (tx) => recordEvent(this.deps, tx, { type: 'wiki', action, page: webPath, sha: id, ...inRepo(repo, actor.id) }));
    } catch (err) {
      const ref = `refs/heads/${branch}`;
      await (parent ? moveRef(dir, ref, parent, id) : deleteRef(dir, ref, id))
        .catch((e: Error) => this.deps.log.error({ err: e.message, repoId: repo.id }, 'could not undo a wiki change whose record failed'));
      throw err;
    }
    return id;
  }

  /** The wiki's pages (top-level Markdown files, `_Sidebar` and `_Footer` included as Gitea lists them), by name, one page of them. */
  async listPages(loaded: LoadedRepo, page: { limit: number; offset: number }): Promise<{ rows: WikiPageMeta[]; total: number }> {
    if (!canRead(loaded.perm, 'repo.wiki')) throw new NotFound();
    const dir = this.dir(loaded);
    const tip = existsSync(dir) ? await refTarget(dir, 'HEAD') : undefined;
    if (!tip) throw new NotFound();
    const files = (await readDir(dir, tip, '')).filter((e) => e.type === 'blob' && e.name.endsWith('.md'))
      .map((e) => ({ gitPath: e.name, webPath: gitPathToWebPath(e.name) }))
      .filter((e): e is { gitPath: string; webPath: string } => e.webPath !== undefined);
    const slice = files.slice(page.offset, page.offset + page.limit);
    const rows = await Promise.all(slice.map(async (f) => {
      const last = await lastCommitTouching(dir, tip, f.gitPath);
      return { webPath: f.webPath, title: webPathToUserTitle(f.webPath), lastCommit: await readCommit(dir, last ?? tip) };
    }));
    return { rows, total: files.length };
  }

  /** The commits that touched a page, newest first, one page of them, and how many there are. */
  async revisions(loaded: LoadedRepo, pageName: string, page: { limit: number; offset: number }, rawPageName?: string): Promise<{ commits: CommitData[]; count: number }> {
    const current = await this.getPage(loaded, pageName, rawPageName);
    const dir = this.dir(loaded);
    const tip = (await refTarget(dir, 'HEAD'))!;
    const all = await commitsTouching(dir, tip, current.gitPath);
    const commits = await Promise.all(all.slice(page.offset, page.offset + page.limit).map((c) => readCommit(dir, c)));
    return { commits, count: all.length };
  }

  /**
   * The page named by `pageName` (the decoded path parameter, read as a `sub_url`) or, failing that, by
   * `rawPageName` (the segment as sent, read as Gitea reads it); 404 for a missing page or wiki.
   */
  async getPage(loaded: LoadedRepo, pageName: string, rawPageName?: string): Promise<WikiPageView> {
    if (!canRead(loaded.perm, 'repo.wiki')) throw new NotFound();
    const dir = this.dir(loaded);
    if (!existsSync(dir)) throw new NotFound();
    const tip = await refTarget(dir, 'HEAD');
    if (!tip) throw new NotFound();
    const names = rawPageName && rawPageName !== pageName ? [pageName, rawPageName] : [pageName];
    const page = await this.readPage(dir, tip, candidatePaths(names));
    if (!page) throw new NotFound();
    return page;
  }

  /** The first of `paths` that is a file in `commit`, as a page. */
  private async readPage(dir: string, commit: string, paths: string[]): Promise<WikiPageView | undefined> {
    const entries = await entriesAt(dir, commit, [...paths, sidebarFile, footerFile]);
    const file = paths.map((p) => entries.get(p)).find((e) => e?.type === 'blob');
    if (!file) return undefined;
    const special = (p: string) => {
      const e = entries.get(p);
      return e?.type === 'blob' ? readBlob(dir, e.id) : undefined;
    };
    const [content, history, sidebar, footer] = await Promise.all([
      readBlob(dir, file.id),
      commitsTouching(dir, commit, file.path),
      special(sidebarFile),
      special(footerFile),
    ]);
    // A file pushed with a broken escape in its name still gets a usable web path.
    const webPath = gitPathToWebPath(file.path) ?? queryEscape(file.path.replace(/\.md$/, ''));
    return {
      webPath,
      gitPath: file.path,
      title: webPathToUserTitle(webPath),
      content,
      lastCommit: await readCommit(dir, history[0] ?? commit),
      commitCount: history.length,
      sidebar,
      footer,
    };
  }

  /** A new wiki repository, made in a scratch folder and moved into place, so no one sees half of it. */
  /** Makes the wiki's git repository when it has none (the first push over git does this). */
  async ensureRepo(loaded: Pick<LoadedRepo, 'repo' | 'owner'>): Promise<void> {
    const dir = wikiDir(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
    if (!existsSync(dir)) await this.init(dir, loaded.repo);
  }

  private async init(dir: string, repo: RepoRow): Promise<void> {
    const scratch = join(this.deps.config.dataDir, 'tmp', `${randomUUID()}.wiki.git`);
    try {
      await initBare(scratch, { objectFormat: repo.objectFormat, defaultBranch: repo.defaultBranch });
      renameSync(scratch, dir);
    } catch (err) {
      if (!existsSync(dir)) throw err; // else another process made it first
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
}
