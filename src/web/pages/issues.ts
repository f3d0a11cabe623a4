// Issues and pull requests: lists by state, one issue or pull request with its comments (and reviews,
// files and diff), each body rendered as Markdown.
import type { components } from '../../../generated/openapi.js';
import { presentComments, presentIssuesWithDetails, presentLoadedIssue } from '../../present/issues.js';
import { presentPull, presentReviews } from '../../present/pulls.js';
import { toPullReviewComment } from '../../convert/review.js';
import { canRead } from '../../permissions/repo.js';
import { NotFound } from '../../services/errors.js';
import type { LoadedRepo } from '../../services/repos/repos.js';
import {
  ANSWERED, diffView, encPath, labelSpan, pageNumber, pageSize, pager, repoCrumbs, repoHref, stateOf, userLink, when,
  type Page, type PageAnswer, type PageReq,
} from './common.js';
import { html, type SafeHtml } from './html.js';
import { markdown } from './markdown.js';

type Comment = components['schemas']['Comment'];
const indexOf = (raw: string) => {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new NotFound();
  return Number(raw);
};
/** Comments shown on one page of an issue: enough that a `#issuecomment-` link lands almost always. */
const commentsPerPage = 200;

function stateFilter(req: PageReq): 'open' | 'closed' | 'all' {
  const s = req.koa.query.state;
  return s === 'closed' || s === 'all' ? s : 'open';
}

export async function issueList(req: PageReq, loaded: LoadedRepo, type: 'issues' | 'pulls'): Promise<Page> {
  if (!canRead(loaded.perm, type === 'issues' ? 'repo.issues' : 'repo.pulls')) throw new NotFound();
  const state = stateFilter(req);
  const page = pageNumber(req);
  const size = pageSize(req);
  const { rows, total } = await req.services.issues.list(loaded, { state, type }, { limit: size, offset: (page - 1) * size });
  const shown = await presentIssuesWithDetails(req, loaded, rows);
  const base = `${repoHref(req, loaded)}/${type}`;
  const title = type === 'issues' ? 'Issues' : 'Pull requests';
  const body = html`<main class="${type}">
<h1>${title}</h1>
<nav class="states">${(['open', 'closed', 'all'] as const).map((s) => (s === state ? html`<strong>${s}</strong> ` : html`<a href="${base}?state=${s}">${s}</a> `))}</nav>
${shown.length === 0 ? html`<p class="muted">Nothing here.</p>` : html`<table class="list issues">${shown.map((i) => html`<tr class="issue" id="issue-${i.number}">
<td>${stateOf(i.state)}</td><td><a href="${base}/${i.number}">${i.title}</a> ${i.labels.map(labelSpan)}</td>
<td>#${i.number} by ${userLink(req, i.user)} ${when(i.created_at)}</td><td>${i.comments ? `${i.comments} comments` : ''}</td></tr>`)}</table>`}
${pager(req, page, size, total, { state })}
</main>`;
  return { title: `${title} - ${loaded.owner.name}/${loaded.repo.name}`, crumbs: repoCrumbs(req, loaded, { label: title, href: base }), body };
}

function commentBlock(req: PageReq, c: Comment): SafeHtml {
  return html`<div class="comment" id="issuecomment-${c.id}">
<div class="meta">${userLink(req, c.user)} commented ${when(c.created_at)}</div>
<div class="markdown">${markdown(c.body)}</div>
${c.assets.length ? html`<ul class="assets">${c.assets.map((a) => html`<li><a href="${a.browser_download_url}">${a.name}</a></li>`)}</ul>` : ''}
</div>`;
}

/** One page of an issue's comments, with their posters, as the API presents them. */
async function commentsOf(req: PageReq, loaded: LoadedRepo, issue: Parameters<typeof presentComments>[2]) {
  const page = pageNumber(req);
  const { rows, total } = await req.services.comments.list(issue, {}, { limit: commentsPerPage, offset: (page - 1) * commentsPerPage });
  const shown = await presentComments(req, loaded, issue, rows);
  return html`<section class="comments">${shown.map((c) => commentBlock(req, c))}</section>${total > commentsPerPage ? pager(req, page, commentsPerPage, total) : ''}`;
}

export async function issuePage(req: PageReq, loaded: LoadedRepo, rawIndex: string): Promise<PageAnswer> {
  const index = indexOf(rawIndex);
  const loadedIssue = await req.services.issues.loadWithDetails(loaded, index);
  if (loadedIssue.issue.isPull) {
    // As Gitea: a pull request's number under /issues/ is its pull request page.
    req.koa.redirect(`${repoHref(req, loaded)}/pulls/${index}${req.koa.querystring ? `?${req.koa.querystring}` : ''}`);
    return ANSWERED;
  }
  const [issue, comments] = await Promise.all([presentLoadedIssue(req, loaded, loadedIssue), commentsOf(req, loaded, loadedIssue.issue)]);
  const body = html`<main class="issue">
<h1><span class="title">${issue.title}</span> <span class="muted">#${issue.number}</span></h1>
<p class="issue-meta">${stateOf(issue.state)} · opened by ${userLink(req, issue.user)} ${when(issue.created_at)}${
    issue.milestone ? html` · milestone <span class="milestone">${issue.milestone.title}</span>` : ''}</p>
<p class="labels">${issue.labels.map(labelSpan)}</p>
<div class="issue-body" id="issue-${issue.number}-body">
<div class="meta">${userLink(req, issue.user)} ${when(issue.created_at)}</div>
<div class="markdown">${markdown(issue.body)}</div>
</div>
${comments}
</main>`;
  return {
    title: `${issue.title} · Issue #${issue.number} - ${loaded.owner.name}/${loaded.repo.name}`,
    crumbs: repoCrumbs(req, loaded, { label: 'Issues', href: `${repoHref(req, loaded)}/issues` }, { label: `#${issue.number}` }),
    body,
  };
}

async function pullHeader(req: PageReq, loaded: LoadedRepo, index: number) {
  const view = await req.services.pulls.get(loaded, index);
  const pull = await presentPull(req, loaded, view);
  const base = `${repoHref(req, loaded)}/pulls/${index}`;
  const head = html`<h1><span class="title">${pull.title}</span> <span class="muted">#${pull.number}</span></h1>
<p class="pull-meta">${stateOf(pull.merged ? 'merged' : pull.state)} · ${userLink(req, pull.user)} wants to merge <code class="head">${pull.head.label}</code> into <code class="base">${pull.base.label}</code> ${when(pull.created_at)}</p>
<p class="labels">${pull.labels.map(labelSpan)}</p>
<nav class="tabs"><a href="${base}">Conversation</a> <a href="${base}/files">Files changed</a> <a href="${base}.diff">.diff</a> <a href="${base}.patch">.patch</a></nav>`;
  return { view, pull, head };
}

export async function pullPage(req: PageReq, loaded: LoadedRepo, rawIndex: string): Promise<PageAnswer> {
  const diffType = /^(\d+)\.(diff|patch)$/.exec(rawIndex);
  if (diffType) return pullDiffText(req, loaded, diffType[1]!, diffType[2] as 'diff' | 'patch');
  const index = indexOf(rawIndex);
  const { view, pull, head } = await pullHeader(req, loaded, index);
  const [comments, reviews, diff] = await Promise.all([
    commentsOf(req, loaded, view.issue),
    req.services.reviews.list(loaded, index, req.auth.actor, { limit: 100, offset: 0 }).then(({ rows, view: v }) => presentReviews(req, loaded, v, rows)),
    req.services.pullChanges.diffOrPatch(loaded, index, 'diff', false),
  ]);
  const body = html`<main class="pull">
${head}
<div class="issue-body pull-body" id="pull-${pull.number}-body">
<div class="meta">${userLink(req, pull.user)} ${when(pull.created_at)}</div>
<div class="markdown">${markdown(pull.body)}</div>
</div>
${comments}
<section class="reviews">${reviews.map((r) => html`<div class="review" id="pullrequestreview-${r.id}">
<div class="meta">${userLink(req, r.user)} <span class="review-state">${r.state}</span> ${when(r.submitted_at)}</div>
${r.body ? html`<div class="markdown">${markdown(r.body)}</div>` : ''}
</div>`)}</section>
<h2>Diff</h2>
${diffView(diff)}
</main>`;
  return {
    title: `${pull.title} · Pull request #${pull.number} - ${loaded.owner.name}/${loaded.repo.name}`,
    crumbs: repoCrumbs(req, loaded, { label: 'Pull requests', href: `${repoHref(req, loaded)}/pulls` }, { label: `#${pull.number}` }),
    body,
  };
}

export async function pullFilesPage(req: PageReq, loaded: LoadedRepo, rawIndex: string): Promise<Page> {
  const index = indexOf(rawIndex);
  const { view, pull, head } = await pullHeader(req, loaded, index);
  const [{ files }, diff, lineComments] = await Promise.all([
    req.services.pullChanges.files(loaded, index, {}),
    req.services.pullChanges.diffOrPatch(loaded, index, 'diff', false),
    req.services.reviews.lineCommentsOf(view, req.auth.actor, commentsPerPage),
  ]);
  const where = { owner: loaded.owner, repo: loaded.repo, issue: view.issue };
  const notes = lineComments.map((r) => toPullReviewComment(r.comment, r.poster, where, req.auth.actor, req.config));
  const src = `${repoHref(req, loaded)}/src/commit/${pull.head.sha}`;
  const body = html`<main class="pull-files">
${head}
<table class="list changed-files">${files.map((f) => html`<tr><td>${f.status}</td><td><a href="${src}/${encPath(f.path)}">${f.path}</a>${f.from ? html` <span class="muted">(from ${f.from})</span>` : ''}</td><td class="add">+${f.additions}</td><td class="del">-${f.deletions}</td></tr>`)}</table>
${diffView(diff)}
${notes.length ? html`<h2>Review comments</h2><section class="comments review-comments">${notes.map((c) => html`<div class="comment" id="issuecomment-${c.id}">
<div class="meta">${userLink(req, c.user)} on <code>${c.path}</code> line ${c.position || c.original_position} ${when(c.created_at)}</div>
<div class="markdown">${markdown(c.body)}</div>
</div>`)}</section>` : ''}
</main>`;
  return {
    title: `Files · Pull request #${pull.number} - ${loaded.owner.name}/${loaded.repo.name}`,
    crumbs: repoCrumbs(req, loaded, { label: 'Pull requests', href: `${repoHref(req, loaded)}/pulls` }, { label: `#${pull.number}`, href: `${repoHref(req, loaded)}/pulls/${pull.number}` }, { label: 'files' }),
    body,
  };
}

/** `/pulls/{n}.diff` and `.patch` (diff_url, patch_url): the text itself. */
async function pullDiffText(req: PageReq, loaded: LoadedRepo, rawIndex: string, kind: 'diff' | 'patch'): Promise<PageAnswer> {
  const text = await req.services.pullChanges.diffOrPatch(loaded, indexOf(rawIndex), kind, false);
  req.koa.set('X-Content-Type-Options', 'nosniff');
  req.koa.type = 'text/plain; charset=utf-8';
  req.koa.body = text;
  return ANSWERED;
}
