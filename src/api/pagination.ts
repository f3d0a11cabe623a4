// Gitea's list conventions: page ≥ 1, limit defaulting to 30 and clamped to 50, X-Total-Count and an
// RFC 5988 Link header, both exposed to browsers.
import type { Config } from '../config.js';

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

export function pageOf(query: { page?: number; limit?: number }, config: Config): Page {
  const raw = Math.trunc(query.limit ?? 0) || 0;
  const limit = raw <= 0 ? config.pageSize.default : Math.min(raw, config.pageSize.max);
  // A page past every list is empty anyway; the cap keeps the SQL offset a safe integer (no 500).
  const maxPage = Math.floor(Number.MAX_SAFE_INTEGER / limit);
  const page = Math.min(Math.max(1, Math.trunc(query.page ?? 1) || 1), maxPage);
  return { page, limit, offset: (page - 1) * limit };
}

/** Headers for one page of `total` items; `url` is the request's URL path and query. */
export function pageHeaders(config: Config, url: string, page: Page, total: number): Record<string, string> {
  const last = Math.max(1, Math.ceil(total / page.limit));
  const base = new URL(url.replace(/^\//, ''), config.rootUrl);
  const link = (n: number, rel: string) => {
    base.searchParams.set('page', String(n));
    base.searchParams.set('limit', String(page.limit));
    return `<${base.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page.page < last) links.push(link(page.page + 1, 'next'), link(last, 'last'));
  if (page.page > 1) links.push(link(1, 'first'), link(page.page - 1, 'prev'));
  const headers: Record<string, string> = { 'X-Total-Count': String(total) };
  if (links.length) headers.Link = links.join(', ');
  return headers;
}
