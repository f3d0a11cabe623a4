// A repository's page, its files (folders, files, raw downloads), archives and commits.
import { contentDisposition } from '../../api/attachmentHttp.js';
import { canRead } from '../../permissions/repo.js';
import type { ContentEntry } from '../../services/git/contents.js';
import { repoStatus, taskStatus } from '../../db/schema/index.js';
import { NotFound } from '../../services/errors.js';
import type { LoadedRepo } from '../../services/repos/repos.js';
import {
  ANSWERED, codeView, diffView, encPath, repoCrumbs, repoHref, when, type Page, type PageAnswer, type PageReq,
} from './common.js';
import { html, type SafeHtml } from './html.js';
import { markdown } from './markdown.js';

/** Files past this size are not shown on a page; the raw download serves them. */
const showLimit = 1024 * 1024;
const readmeNames = [/^readme\.(md|markdown)$/i, /^readme$/i, /^readme\.txt$/i];

const isBinary = (data: Buffer) => data.subarray(0, 8000).includes(0);
const isText = (data: Buffer) => !isBinary(data) && !data.toString('utf8').includes('\ufffd');

export type RefKind = 'branch' | 'tag' | 'commit' | 'any';

/** Where a tree or file of `ref` lives: `/src/branch/{b}`, `/src/tag/{t}`, `/src/commit/{sha}` or Gitea's legacy `/src/{ref}`. */
function refBase(req: PageReq, loaded: LoadedRepo, what: 'src' | 'raw', kind: RefKind, ref: string): string {
  const name = ref.replace(/^refs\/tags\//, '');
  return `${repoHref(req, loaded)}/${what}/${kind === 'any' ? '' : `${kind}/`}${encPath(name)}`;
}

function repoNav(req: PageReq, loaded: LoadedRepo): SafeHtml {
  const base = repoHref(req, loaded);
  const links: Array<[string, string, boolean]> = [
    ['Code', base, canRead(loaded.perm, 'repo.code')],
    ['Issues', `${base}/issues`, canRead(loaded.perm, 'repo.issues')],
    ['Pull requests', `${base}/pulls`, canRead(loaded.perm, 'repo.pulls')],
    ['Releases', `${base}/releases`, canRead(loaded.perm, 'repo.releases')],
    ['Wiki', `${base}/wiki`, canRead(loaded.perm, 'repo.wiki')],
    ['Actions', `${base}/actions`, canRead(loaded.perm, 'repo.actions')],
  ];
  return html`<nav class="repo-nav">${links.filter(([, , ok]) => ok).map(([label, href]) => html`<a href="${href}">${label}</a> `)}</nav>`;
}

function fileTable(req: PageReq, loaded: LoadedRepo, kind: RefKind, ref: string, entries: ContentEntry[], parent?: string): SafeHtml {
  const base = refBase(req, loaded, 'src', kind, ref);
  const sorted = [...entries].sort((a, b) => Number(b.entry.type === 'tree') - Number(a.entry.type === 'tree') || a.entry.path.localeCompare(b.entry.path));
  return html`<table class="files">
${parent !== undefined ? html`<tr class="parent"><td><a href="${base}/${encPath(parent)}">..</a></td><td></td></tr>` : ''}
${sorted.map(({ entry }) => {
    const name = entry.path.split('/').pop()!;
    const type = entry.type === 'tree' ? 'dir' : entry.type === 'commit' ? 'submodule' : entry.mode === '120000' ? 'symlink' : 'file';
    const link = entry.type === 'commit' ? html`<span>${name}</span>` : html`<a href="${base}/${encPath(entry.path)}">${name}${type === 'dir' ? '/' : ''}</a>`;
    return html`<tr class="${type}"><td class="name">${link}</td><td class="size">${type === 'file' ? `${entry.size} B` : ''}</td></tr>`;
  })}
</table>`;
}

export async function repoHome(req: PageReq, loaded: LoadedRepo): Promise<Page> {
  const { repo } = loaded;
  if (repo.status === repoStatus.beingMigrated) return migratingPage(req, loaded);
  const parts: SafeHtml[] = [];
  if (canRead(loaded.perm, 'repo.code')) {
    const listed = repo.isEmpty ? undefined : await req.services.contents.get(loaded, '', repo.defaultBranch).catch((err: unknown) => {
      if (err instanceof NotFound) return undefined; // a default branch that does not exist
      throw err;
    });
    if (!listed?.list) {
      parts.push(html`<p class="empty">This repository is empty.</p>`);
    } else {
      const entries = listed.list;
      const readme = readmeNames.map((re) => entries.find((e) => e.entry.type === 'blob' && re.test(e.entry.path))).find(Boolean);
      const [branches, tags, readmeFile] = await Promise.all([
        req.services.branches.list(loaded, { limit: 50, offset: 0 }),
        req.services.tags.list(loaded, { limit: 50, offset: 0 }),
        readme && readme.entry.size <= showLimit ? req.services.contents.get(loaded, readme.entry.path, listed.commit) : undefined,
      ]);
      parts.push(html`<h2>Files <span class="muted">(${repo.defaultBranch})</span></h2>`, fileTable(req, loaded, 'branch', repo.defaultBranch, entries));
      const data = readmeFile?.file?.data;
      if (readme && data) {
        const isMd = /\.(md|markdown)$/i.test(readme.entry.path);
        parts.push(html`<article class="markdown readme"><h2 class="readme-name">${readme.entry.path}</h2>${isMd ? markdown(data.toString('utf8')) : html`<pre>${data.toString('utf8')}</pre>`}</article>`);
      }
      const base = repoHref(req, loaded);
      parts.push(html`<h2>Branches</h2><ul class="branches">${branches.rows.map((b) => html`<li><a href="${base}/src/branch/${encPath(b.name)}">${b.name}</a> <a class="muted" href="${base}/commit/${b.commit.id}">${b.commit.id.slice(0, 10)}</a></li>`)}</ul>`);
      parts.push(html`<h2>Tags</h2>${tags.rows.length === 0 ? html`<p class="muted">No tags.</p>` : html`<ul class="tags">${tags.rows.map((t) => html`<li><a href="${base}/src/tag/${encPath(t.name)}">${t.name}</a> <a class="muted" href="${base}/commit/${t.commit}">${t.commit.slice(0, 10)}</a></li>`)}</ul>`}`);
    }
  }
  const body = html`<main class="repo">
<h1>${loaded.owner.name}/${repo.name}${repo.isPrivate ? html` <span class="label">private</span>` : ''}${repo.isArchived ? html` <span class="label">archived</span>` : ''}</h1>
${repo.description ? html`<p class="description">${repo.description}</p>` : ''}
${repoNav(req, loaded)}
${parts}
</main>`;
  return { title: `${loaded.owner.name}/${repo.name}`, crumbs: repoCrumbs(req, loaded), body };
}

export async function srcPage(req: PageReq, loaded: LoadedRepo, kind: RefKind, rest: string): Promise<Page> {
  const split = await req.services.contents.splitRef(loaded, kind, rest);
  if (!split) throw new NotFound();
  const found = await req.services.contents.get(loaded, split.path, split.ref);
  const refName = split.ref.replace(/^refs\/tags\//, '');
  const path = split.path.split('/').filter(Boolean).join('/');
  const segs = path ? path.split('/') : [];
  const base = refBase(req, loaded, 'src', kind, split.ref);
  const trail = [html`<a href="${base}">${loaded.repo.name}</a>`, ...segs.map((s, i) => html` / <a href="${base}/${encPath(segs.slice(0, i + 1).join('/'))}">${s}</a>`)];
  let content: SafeHtml;
  if (found.list) {
    content = fileTable(req, loaded, kind, split.ref, found.list, segs.length ? segs.slice(0, -1).join('/') : undefined);
  } else {
    const { entry, data, lastCommit } = found.file!;
    const rawHref = `${refBase(req, loaded, 'raw', kind, split.ref)}/${encPath(path)}`;
    const meta = html`<p class="file-meta">${entry.size} bytes · <a href="${rawHref}">Raw</a>${lastCommit ? html` · last commit <a href="${repoHref(req, loaded)}/commit/${lastCommit.id}">${lastCommit.id.slice(0, 10)}</a> ${when(lastCommit.author.date)}` : ''}</p>`;
    if (entry.type === 'commit') content = html`<p class="note">A submodule at ${entry.id}.</p>`;
    else if (entry.mode === '120000') content = html`${meta}<p class="note">A symbolic link to <code>${data?.toString('utf8') ?? ''}</code>.</p>`;
    else if (!data || entry.size > showLimit || isBinary(data)) content = html`${meta}<p class="note">This file is ${entry.size > showLimit ? 'too large' : 'binary'} to show: <a href="${rawHref}">download it</a>.</p>`;
    else if (/\.(md|markdown)$/i.test(path) && req.koa.query.display !== 'source') content = html`${meta}<article class="markdown file">${markdown(data.toString('utf8'))}</article>`;
    else content = html`${meta}${codeView(data.toString('utf8'))}`;
  }
  const body = html`<main class="src">
<h1>${path || loaded.repo.name}</h1>
<p class="ref">${kind === 'tag' ? 'Tag' : kind === 'commit' ? 'Commit' : 'Branch'}: <code>${refName}</code></p>
<nav class="path">${trail}</nav>
${content}
</main>`;
  return { title: `${path || loaded.repo.name} at ${refName} - ${loaded.owner.name}/${loaded.repo.name}`, crumbs: repoCrumbs(req, loaded, { label: refName }, ...segs.map((s) => ({ label: s }))), body };
}

const imageTypes: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', ico: 'image/x-icon' };

/** A file's bytes: text as UTF-8 text, pictures as pictures, anything else as a download. Never rendered as HTML. */
export async function rawFile(req: PageReq, loaded: LoadedRepo, kind: RefKind, rest: string): Promise<PageAnswer> {
  const split = await req.services.contents.splitRef(loaded, kind, rest);
  if (!split || !split.path) throw new NotFound();
  const file = await req.services.contents.raw(loaded, split.path, split.ref);
  const ctx = req.koa;
  const ext = (file.name.split('.').pop() ?? '').toLowerCase();
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  if (imageTypes[ext] && file.name.includes('.')) {
    ctx.type = imageTypes[ext]!;
  } else if (isText(file.data)) {
    ctx.type = 'text/plain; charset=utf-8';
  } else {
    ctx.type = 'application/octet-stream';
    ctx.set('Content-Disposition', contentDisposition(file.name));
  }
  ctx.body = file.data;
  return ANSWERED;
}

/** `{ref}.zip` / `{ref}.tar.gz`: the archive service's stream (tags' zipball_url and tarball_url). */
export async function archive(req: PageReq, loaded: LoadedRepo, name: string): Promise<PageAnswer> {
  const { name: fileName, stream } = await req.services.gitData.archive(loaded, name);
  const ctx = req.koa;
  ctx.set('Content-Disposition', contentDisposition(fileName));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = name.endsWith('.zip') ? 'application/zip' : 'application/gzip';
  if (ctx.method === 'HEAD') {
    stream.destroy();
    ctx.status = 200;
  } else {
    ctx.body = stream;
  }
  return ANSWERED;
}

export async function commitPage(req: PageReq, loaded: LoadedRepo, sha: string): Promise<Page> {
  if (!/^[0-9a-f]{4,64}$/.test(sha)) throw new NotFound();
  const { row, diff } = await req.services.gitData.commitWithDiff(loaded, sha);
  const c = row.commit;
  const [subject = '', ...restLines] = c.message.split('\n');
  const base = repoHref(req, loaded);
  const body = html`<main class="commit">
<h1>${subject}</h1>
${restLines.join('\n').trim() ? html`<pre class="message">${restLines.join('\n').trim()}</pre>` : ''}
<p class="commit-meta"><span class="author">${c.author.name}</span> committed ${when(c.committer.date)} · <code class="sha">${c.id}</code>
${c.parents.map((p) => html` · parent <a href="${base}/commit/${p}">${p.slice(0, 10)}</a>`)} · <a href="${base}/src/commit/${c.id}">Browse files</a></p>
<p class="stats"><span class="add">+${row.additions}</span> <span class="del">-${row.deletions}</span></p>
${diffView(diff)}
</main>`;
  return { title: `${subject} · ${c.id.slice(0, 10)}`, crumbs: repoCrumbs(req, loaded, { label: 'commit' }, { label: c.id.slice(0, 10) }), body };
}


/**
 * A repository being migrated (Gitea's migrating page): where from and what the migration does now;
 * `data-migrating-task-id` names the task whose `/user/task/{id}` its migrating user may poll.
 */
async function migratingPage(req: PageReq, loaded: LoadedRepo): Promise<Page> {
  const task = await req.services.migrations.taskOfRepo(loaded.repo.id);
  const state = !task || task.status === taskStatus.queued ? 'queued' : 'running';
  const now = task?.message || (state === 'queued' ? 'Waiting to start' : 'Starting');
  return {
    title: `${loaded.owner.name}/${loaded.repo.name}`,
    crumbs: repoCrumbs(req, loaded),
    body: html`<main class="repo migrating"><h1>${loaded.owner.name}/${loaded.repo.name}</h1>
<p class="migrating" data-migrating-task-id="${task?.id ?? 0}" data-status="${state}">This repository is being migrated${loaded.repo.originalUrl ? html` from <code>${loaded.repo.originalUrl}</code>` : ''}: <span class="progress">${now}</span></p></main>`,
  };
}
