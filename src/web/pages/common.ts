// What the pages share: the request they are given, links, lists, code and diff views.
import type { Context } from 'koa';
import type { components } from '../../../generated/openapi.js';
import type { Auth } from '../../api/auth.js';
import type { Config } from '../../config.js';
import type { Services } from '../../services/index.js';
import type { LoadedRepo } from '../../services/repos/repos.js';
import { html, type SafeHtml, type Value } from './html.js';
import type { Crumb } from './layout.js';

export interface PageReq {
  services: Services;
  config: Config;
  auth: Auth;
  koa: Context;
  /** The site's path prefix (ROOT_URL's path), ending in `/`. */
  base: string;
}

export interface Page {
  title: string;
  crumbs: Crumb[];
  body: SafeHtml;
}

/** A page that answered by itself (a download, a redirect): nothing more to render. */
export const ANSWERED = Symbol('answered');
export type PageAnswer = Page | typeof ANSWERED;

export const enc = encodeURIComponent;
/** A repository path with each segment URL-encoded, slashes kept. */
export const encPath = (path: string) => path.split('/').map(enc).join('/');

export const ownerHref = (req: PageReq, name: string) => `${req.base}${enc(name)}`;
export const repoHref = (req: PageReq, loaded: LoadedRepo) => `${req.base}${enc(loaded.owner.name)}/${enc(loaded.repo.name)}`;

export function repoCrumbs(req: PageReq, loaded: LoadedRepo, ...more: Crumb[]): Crumb[] {
  return [{ label: loaded.owner.name, href: ownerHref(req, loaded.owner.name) }, { label: loaded.repo.name, href: repoHref(req, loaded) }, ...more];
}

/** `?page=` as a positive page number (anything else is the first page). */
export function pageNumber(req: PageReq): number {
  const raw = req.koa.query.page;
  const n = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1;
}

export function pageSize(req: PageReq): number {
  return req.config.pageSize.default;
}

/** Previous/next links for a list of `total` items shown `size` to a page, keeping the other query parameters. */
export function pager(req: PageReq, page: number, size: number, total: number, keep: Record<string, string> = {}): SafeHtml {
  const last = Math.max(1, Math.ceil(total / size));
  const href = (p: number) => `?${new URLSearchParams({ ...keep, page: String(p) }).toString()}`;
  return html`<nav class="pager">${page > 1 ? html`<a rel="prev" href="${href(page - 1)}">Previous</a>` : ''}<span>Page ${page} of ${last}</span>${
    page < last ? html`<a rel="next" href="${href(page + 1)}">Next</a>` : ''}</nav>`;
}

export function when(date: string | Date | null | undefined): SafeHtml {
  if (!date) return html``;
  const d = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(d.getTime())) return html``;
  return html`<time datetime="${d.toISOString()}">${d.toISOString().slice(0, 16).replace('T', ' ')}</time>`;
}

export function userLink(req: PageReq, u: { login?: string; username?: string } | null | undefined): SafeHtml {
  const name = u?.login ?? u?.username ?? '';
  return name ? html`<a class="user" href="${ownerHref(req, name)}">${name}</a>` : html`<span class="user">Ghost</span>`;
}

export function labelSpan(l: components['schemas']['Label']): SafeHtml {
  // The colour is a validated hex value; it still goes through escaping like everything else.
  const color = /^#?[0-9a-fA-F]{6}$/.test(l.color) ? `#${l.color.replace(/^#/, '')}` : '#cccccc';
  return html`<span class="label" style="border-color:${color}" title="${l.description}">${l.name}</span>`;
}

/** Text with line numbers, each line escaped. */
export function codeView(text: string): SafeHtml {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return html`<table class="code">${lines.map((line, i) => html`<tr id="L${i + 1}"><td class="ln">${i + 1}</td><td>${line}</td></tr>`)}</table>`;
}

/** How much diff text a page shows; the rest is left to the download. */
const diffLimit = 1024 * 1024;

/** A unified diff, one escaped line each, classed by kind. */
export function diffView(text: string): SafeHtml {
  const cut = text.length > diffLimit;
  const shown = cut ? text.slice(0, diffLimit) : text;
  const lines = shown.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const kind = (l: string) => (l.startsWith('diff --git') ? 'file' : l.startsWith('@@') ? 'hunk' : l.startsWith('+++') || l.startsWith('---') ? 'head' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'ctx');
  const body: Value[] = lines.map((l) => html`<div class="${kind(l)}">${l || ' '}</div>`);
  return html`<pre class="diff">${body}</pre>${cut ? html`<p class="muted">The diff is too large to show whole.</p>` : ''}`;
}

export function stateOf(state: string): SafeHtml {
  return html`<span class="state state-${state}">${state}</span>`;
}
