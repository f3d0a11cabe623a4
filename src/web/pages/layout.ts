// The one layout every page shares: site name and breadcrumbs, minimal inline CSS, no external resources.
import { html, raw, type SafeHtml, type Value } from './html.js';

export interface Crumb {
  label: string;
  href?: string;
}

/** Scripts are never allowed: the pages are read-only and the content is users'. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:";

const css = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#222;background:#fff}
header{background:#2b3137;color:#fff;padding:.6em 1.2em}
header a{color:#fff;text-decoration:none}
header .site{font-weight:600;margin-right:1em}
header .account{float:right}
nav.crumbs a,nav.crumbs span{color:#ddd}
main{max-width:1100px;margin:1em auto;padding:0 1.2em}
a{color:#0366d6}
table{border-collapse:collapse}
table.files,table.list{width:100%}
table.files td,table.list td,table.list th{border-bottom:1px solid #eee;padding:.25em .5em;text-align:left}
pre{background:#f6f8fa;padding:.6em;overflow:auto}
table.code td{font-family:ui-monospace,monospace;font-size:13px;white-space:pre;padding:0 .6em}
table.code td.ln{color:#999;text-align:right;user-select:none}
.diff .add{background:#e6ffed}.diff .del{background:#ffeef0}.diff .hunk{color:#6f42c1}
.label{display:inline-block;border-radius:.8em;padding:0 .6em;margin-right:.3em;font-size:12px;border:1px solid #ccc}
.state{font-weight:600}
.comment,.issue-body,.review{border:1px solid #ddd;border-radius:4px;margin:1em 0}
.comment .meta,.issue-body .meta,.review .meta{background:#f6f8fa;padding:.3em .6em;border-bottom:1px solid #ddd;font-size:13px}
.comment .markdown,.issue-body .markdown,.review .markdown{padding:.3em .8em}
.markdown img{max-width:100%}
.muted{color:#777}
.pager a,.pager span{margin-right:.8em}
`;

/** `signedIn`: the signed-in user's name (a link to their settings), null for a "Sign in" link, undefined for neither. */
export function layout(title: string, crumbs: Crumb[], body: SafeHtml, home: string, signedIn?: string | null): SafeHtml {
  const account = signedIn === undefined
    ? ''
    : signedIn
      ? html`<a class="account" href="${home}user/settings/security">${signedIn}</a>`
      : html`<a class="account signin" href="${home}user/login">Sign in</a>`;
  const trail: Value[] = crumbs.map((c, i) => html`${i ? ' / ' : ''}${c.href ? html`<a href="${c.href}">${c.label}</a>` : html`<span>${c.label}</span>`}`);
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} - anvil</title>
<style>${raw(css)}</style>
</head>
<body>
<header><a class="site" href="${home}">anvil</a><nav class="crumbs">${trail}</nav>${account}</header>
${body}
</body>
</html>
`;
}
