// Wiki pages, releases and Actions runs and jobs.
import { toWorkflowJob, toWorkflowRun } from '../../convert/actions.js';
import { toRelease } from '../../convert/release.js';
import { repoUrls } from '../../convert/repo.js';
import { canRead } from '../../permissions/repo.js';
import { NotFound } from '../../services/errors.js';
import type { LoadedRepo } from '../../services/repos/repos.js';
import {
  encPath, pageNumber, pageSize, pager, repoCrumbs, repoHref, userLink, when, type Page, type PageReq,
} from './common.js';
import { html, type SafeHtml } from './html.js';
import { markdown } from './markdown.js';

const idOf = (raw: string) => {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new NotFound();
  return Number(raw);
};

export async function wikiPage(req: PageReq, loaded: LoadedRepo, name: string | undefined, rawName: string | undefined): Promise<Page> {
  if (!canRead(loaded.perm, 'repo.wiki')) throw new NotFound();
  const wikiHref = `${repoHref(req, loaded)}/wiki`;
  const page = await req.services.wiki.getPage(loaded, name ?? 'Home', rawName).catch((err: unknown) => {
    // The wiki's front door stays open when it has no Home page (or no page at all yet).
    if (name === undefined && err instanceof NotFound) return undefined;
    throw err;
  });
  const side = (b: Buffer | undefined, cls: string) => (b ? html`<aside class="markdown ${cls}">${markdown(b.toString('utf8'))}</aside>` : '');
  const body = page
    ? html`<main class="wiki">
<h1>${page.title}</h1>
<p class="muted">Last edited ${when(page.lastCommit.author.date)} by ${page.lastCommit.author.name} · ${page.commitCount} revisions</p>
<article class="markdown wiki-page">${markdown(page.content.toString('utf8'))}</article>
${side(page.sidebar, 'wiki-sidebar')}${side(page.footer, 'wiki-footer')}
</main>`
    : html`<main class="wiki"><h1>Wiki</h1><p class="empty">This wiki has no pages yet.</p></main>`;
  const title = page?.title ?? 'Wiki';
  return { title: `${title} - Wiki - ${loaded.owner.name}/${loaded.repo.name}`, crumbs: repoCrumbs(req, loaded, { label: 'Wiki', href: wikiHref }, ...(page ? [{ label: page.title }] : [])), body };
}

function releaseBlock(req: PageReq, r: ReturnType<typeof toRelease>, base: string): SafeHtml {
  return html`<section class="release" id="release-${r.id}">
<h2><a href="${base}/releases/tag/${encPath(r.tag_name)}">${r.name || r.tag_name}</a>${r.draft ? html` <span class="label">draft</span>` : ''}${r.prerelease ? html` <span class="label">pre-release</span>` : ''}</h2>
<p class="release-meta">Tag <code>${r.tag_name}</code> · ${userLink(req, r.author)} ${when(r.published_at ?? r.created_at)}</p>
<div class="markdown">${markdown(r.body)}</div>
<ul class="assets">${r.assets.map((a) => html`<li><a href="${a.browser_download_url}">${a.name}</a> <span class="muted">${a.size} B</span></li>`)}
<li><a href="${r.zipball_url}">Source code (zip)</a></li><li><a href="${r.tarball_url}">Source code (tar.gz)</a></li></ul>
</section>`;
}

export async function releaseList(req: PageReq, loaded: LoadedRepo): Promise<Page> {
  const page = pageNumber(req);
  const size = pageSize(req);
  const { rows, total } = await req.services.releases.list(loaded, {}, { limit: size, offset: (page - 1) * size });
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  const base = repoHref(req, loaded);
  const shown = rows.map((v) => toRelease(v.release, v.publisher, v.assets, urls, req.config));
  const body = html`<main class="releases"><h1>Releases</h1>
${shown.length ? shown.map((r) => releaseBlock(req, r, base)) : html`<p class="muted">No releases.</p>`}
${pager(req, page, size, total)}</main>`;
  return { title: `Releases - ${loaded.owner.name}/${loaded.repo.name}`, crumbs: repoCrumbs(req, loaded, { label: 'Releases', href: `${base}/releases` }), body };
}

export async function releasePage(req: PageReq, loaded: LoadedRepo, tag: string): Promise<Page> {
  const v = await req.services.releases.byTag(loaded, tag);
  const r = toRelease(v.release, v.publisher, v.assets, repoUrls(req.config, loaded.owner.name, loaded.repo.name), req.config);
  const base = repoHref(req, loaded);
  const body = html`<main class="release-page"><h1>${r.name || r.tag_name}</h1>${releaseBlock(req, r, base)}</main>`;
  return { title: `${r.name || r.tag_name} - ${loaded.owner.name}/${loaded.repo.name}`, crumbs: repoCrumbs(req, loaded, { label: 'Releases', href: `${base}/releases` }, { label: r.tag_name }), body };
}

const status = (s: { status: string; conclusion?: string | null }) => html`<span class="state state-${s.conclusion || s.status}">${s.conclusion || s.status}</span>`;

export async function actionsPage(req: PageReq, loaded: LoadedRepo): Promise<Page> {
  const page = pageNumber(req);
  const size = pageSize(req);
  const { rows, total } = await req.services.repoActions.listRuns(loaded, { limit: size, offset: (page - 1) * size });
  const runs = rows.map((v) => toWorkflowRun(v, req.auth.actor, req.config));
  const base = `${repoHref(req, loaded)}/actions`;
  const body = html`<main class="actions"><h1>Actions</h1>
${runs.length ? html`<table class="list runs">${runs.map((r) => html`<tr class="run"><td>${status(r)}</td><td><a href="${base}/runs/${r.run_number}">${r.display_title}</a></td><td>#${r.run_number} · ${r.event}${r.head_branch ? html` · ${r.head_branch}` : ''}</td><td>${when(r.created_at)}</td></tr>`)}</table>` : html`<p class="muted">No runs.</p>`}
${pager(req, page, size, total)}</main>`;
  return { title: `Actions - ${loaded.owner.name}/${loaded.repo.name}`, crumbs: repoCrumbs(req, loaded, { label: 'Actions', href: base }), body };
}

export async function runPage(req: PageReq, loaded: LoadedRepo, rawNumber: string): Promise<Page> {
  const view = await req.services.repoActions.runByNumber(loaded, idOf(rawNumber));
  const { rows } = await req.services.repoActions.runJobs(loaded, view.run.id, { limit: 100, offset: 0 });
  const run = toWorkflowRun(view, req.auth.actor, req.config);
  const base = `${repoHref(req, loaded)}/actions`;
  const body = html`<main class="run"><h1>${run.display_title}</h1>
<p class="run-meta">${status(run)} · run #${run.run_number} · ${run.event} · <code>${run.path}</code> · <a href="${repoHref(req, loaded)}/commit/${run.head_sha}">${run.head_sha.slice(0, 10)}</a> · ${when(run.created_at)}</p>
<table class="list jobs">${rows.map((j) => html`<tr class="job"><td>${status(toWorkflowJob(j, req.config))}</td><td><a href="${base}/runs/${run.run_number}/jobs/${j.job.id}">${j.job.name}</a></td></tr>`)}</table>
</main>`;
  return { title: `${run.display_title} - Actions`, crumbs: repoCrumbs(req, loaded, { label: 'Actions', href: base }, { label: `#${run.run_number}` }), body };
}

export async function jobPage(req: PageReq, loaded: LoadedRepo, rawNumber: string, rawJob: string): Promise<Page> {
  const number = idOf(rawNumber);
  const view = await req.services.repoActions.job(loaded, idOf(rawJob));
  if (view.run.index !== number) throw new NotFound();
  const job = toWorkflowJob(view, req.config);
  const base = `${repoHref(req, loaded)}/actions`;
  const body = html`<main class="job"><h1>${job.name}</h1>
<p class="job-meta">${status(job)} · run <a href="${base}/runs/${number}">#${number}</a>${job.runner_name ? html` · runner ${job.runner_name}` : ''} · ${when(job.started_at)}</p>
<ol class="steps">${job.steps.map((s) => html`<li class="step">${status(s)} ${s.name}</li>`)}</ol>
</main>`;
  return { title: `${job.name} - Actions`, crumbs: repoCrumbs(req, loaded, { label: 'Actions', href: base }, { label: `#${number}`, href: `${base}/runs/${number}` }, { label: job.name }), body };
}
