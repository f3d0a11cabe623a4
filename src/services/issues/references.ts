// Issue references in text, as Gitea's modules/references finds them (#38): `#12`, `!12`, `owner/repo#12`
// and links to this server's `{ROOT_URL}owner/repo/issues/12` (or `/pulls/12`), each with the keyword
// just before it (`closes #12`, `reopens: #12`). Pure: which of them exist and may be referenced is
// decided by crossRefs.ts.

/** Gitea's XRefAction, as its API spells it (`neutered` is only ever stored, never found). */
export type XRefAction = 'none' | 'closes' | 'reopens';

export interface IssueReference {
  /** Lower case; '' for an issue of the repository the text belongs to. */
  owner: string;
  name: string;
  index: number;
  action: XRefAction;
}

// Gitea's patterns: a reference starts after white space, an opening bracket or the start of the text and
// ends before white space, a closing bracket, punctuation followed by white space, or the end.
const END = String.raw`(?=\s|$|\)|\]|[:;,.?!]\s|[:;,.?!]$)`;
const issueNumeric = new RegExp(String.raw`(?:\s|^|\(|\[)([#!][0-9]+)${END}`, 'g');
const crossNumeric = new RegExp(String.raw`(?:\s|^|\(|\[)([0-9a-zA-Z_.-]+/[0-9a-zA-Z_.-]+[#!][0-9]+)${END}`, 'g');
const validName = /^[a-z0-9_.-]+$/;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The close and reopen keywords as patterns (Gitea's makeKeywordsPat): a keyword, an optional colon and
 * one space at the end of the text before a reference. `window`: how much of that text can hold one.
 */
export interface Keywords {
  close: RegExp | undefined;
  reopen: RegExp | undefined;
  window: number;
}

const keywordCache = new WeakMap<object, Keywords>();

/** The patterns of `[repository.pull-request]`'s CLOSE_KEYWORDS and REOPEN_KEYWORDS (config.issueKeywords); an empty list never matches. */
export function keywordPatterns(words: { close: string[]; reopen: string[] }): Keywords {
  let k = keywordCache.get(words);
  if (!k) {
    const pat = (list: string[]) =>
      (list.length ? new RegExp(String.raw`(?:\s|^|\(|\[)(${list.map(escapeRe).join('|')}):? $`, 'iu') : undefined);
    k = { close: pat(words.close), reopen: pat(words.reopen), window: Math.max(0, ...words.close.map((w) => w.length), ...words.reopen.map((w) => w.length)) + 4 };
    keywordCache.set(words, k);
  }
  return k;
}

/** Gitea's defaults: close, closes, closed, fix, fixes, fixed, resolve, resolves, resolved; reopen, reopens, reopened. */
export const defaultKeywords = keywordPatterns({
  close: ['close', 'closes', 'closed', 'fix', 'fixes', 'fixed', 'resolve', 'resolves', 'resolved'],
  reopen: ['reopen', 'reopens', 'reopened'],
});

function actionBefore(text: string, start: number, keywords: Keywords): XRefAction {
  const before = text.slice(Math.max(0, start - keywords.window), start);
  if (keywords.close?.test(before)) return 'closes';
  if (keywords.reopen?.test(before)) return 'reopens';
  return 'none';
}

function parse(ref: string, action: XRefAction, fromLink: boolean): IssueReference | undefined {
  const sep = ref.search(/[#!]/);
  if (sep < 0) return undefined;
  const index = Number(ref.slice(sep + 1));
  if (!Number.isSafeInteger(index)) return undefined;
  const repo = ref.slice(0, sep);
  if (repo === '') return fromLink ? undefined : { owner: '', name: '', index, action };
  const parts = repo.toLowerCase().split('/');
  if (parts.length !== 2 || !validName.test(parts[0]!) || !validName.test(parts[1]!)) return undefined;
  return { owner: parts[0]!, name: parts[1]!, index, action };
}

/**
 * Gitea's FindAllIssueReferences: the references of plain text (titles, commit messages). Full links to
 * this server's issues and pull requests count as `owner/repo#N` (`rootUrl` ends in `/`).
 */
/**
 * At most this many distinct issues are referenced by one text, and only its first `maxMentions` mentions
 * are read (Gitea sets no limit): the scan stops at the first mention of one issue more, or at the mention
 * past the last, and repeated mentions are kept once per keyword, so a hostile text (megabytes of `#1 `)
 * costs bounded time and memory. docs/rendering-and-issues.md.
 */
export const maxReferencedIssues = 100;
export const maxMentions = 1_000;

/** Collects references, each target and keyword once, up to `max` distinct targets. */
class Found {
  readonly out: IssueReference[] = [];
  private readonly seen = new Set<string>();
  private readonly targets = new Set<string>();
  private mentions = 0;
  constructor(private readonly max: number) {}
  get full(): boolean {
    return this.targets.size >= this.max;
  }
  /** False once the reference is a target past the limit, or a mention past the last read: the scan stops. */
  add(ref: IssueReference): boolean {
    if (++this.mentions > maxMentions) return false;
    const target = `${ref.owner}/${ref.name}#${ref.index}`;
    if (!this.targets.has(target)) {
      if (this.full) return false;
      this.targets.add(target);
    }
    const key = `${target}:${ref.action}`;
    if (!this.seen.has(key)) {
      this.seen.add(key);
      this.out.push(ref);
    }
    return true;
  }
}

/** `refs` (of several texts) cut to the first `max` distinct targets, each target and keyword once. */
export function upToMaxTargets(refs: IssueReference[], max = maxReferencedIssues): IssueReference[] {
  const found = new Found(max);
  for (const ref of refs) if (!found.add(ref)) break;
  return found.out;
}

export function findIssueReferences(text: string, rootUrl: string, links: string[] = [], keywords: Keywords = defaultKeywords, max = maxReferencedIssues): IssueReference[] {
  if (rootUrl) {
    const full = new RegExp(String.raw`(\s|^|\(|\[)${escapeRe(rootUrl)}([0-9a-zA-Z_.-]+/[0-9a-zA-Z_.-]+)/(issues|pulls)/([0-9]+)${END}`, 'g');
    text = text.replace(full, (_m, pre: string, repo: string, kind: string, n: string) => `${pre}${repo}${kind === 'pulls' ? '!' : '#'}${n}`);
  }
  const found = new Found(max);
  scan: for (const re of [issueNumeric, crossNumeric]) {
    for (const m of text.matchAll(re)) {
      const start = m.index! + m[0].length - m[1]!.length;
      const ref = parse(m[1]!, actionBefore(text, start, keywords), false);
      if (ref && !found.add(ref)) break scan;
    }
  }
  // Markdown links to this server's issues: `/owner/repo/issues/N` (no keywords with links, as Gitea).
  let host = '';
  try {
    host = rootUrl ? new URL(rootUrl).host.toLowerCase() : '';
  } catch {
    host = '';
  }
  for (const link of links) {
    let url: URL;
    try {
      url = new URL(link, rootUrl || 'http://localhost/');
    } catch {
      continue;
    }
    if (url.host.toLowerCase() !== host) continue;
    const parts = url.pathname.split('/');
    if (parts.length !== 5 || parts[0] !== '' || (parts[3] !== 'issues' && parts[3] !== 'pulls')) continue;
    const ref = parse(`${parts[1]}/${parts[2]}${parts[3] === 'pulls' ? '!' : '#'}${parts[4]}`, 'none', true);
    if (ref && !found.add(ref)) break;
  }
  return found.out;
}

/**
 * Gitea's FindAllIssueReferencesMarkdown: the references of Markdown (bodies, comments), leaving out code
 * (fenced blocks and inline spans) and counting the targets of links.
 */
export function findIssueReferencesMarkdown(markdown: string, rootUrl: string, keywords: Keywords = defaultKeywords): IssueReference[] {
  const links = new Set<string>();
  const text = markdown
    // The fence is taken whole (`(?=(…))\2`, atomic): given back a mark at a time, a line of marks with no
    // line end after it took time quadratic in its length.
    .replace(/^([ ]{0,3})(?=(`{3,}|~{3,}))\2[^\n]*\n[\s\S]*?(?:^\1?\2[`~]*[ \t]*$|(?![\s\S]))/gm, '\n')
    // Each scan below stops at the next backtick or bracket, so hostile text costs linear time.
    .replace(/(`+)[^`]*\1/g, ' ')
    // The white space after `(` is taken at once, never given back (`(?=(\s*))\2`, an atomic group): with an
    // empty target, a plain `\s*` there would share a run of spaces with the title's `\s+` and the final
    // `\s*`, and an unclosed `[a](` before a long run of spaces took time quadratic in the run.
    .replace(/!?\[([^\][\n]*)\]\((?=(\s*))\2<?([^()\s<>[\]]*)>?(?:\s+"[^"\n]*")?\s*\)/g, (_m, label: string, _space: string, href: string) => {
      // Each target once, and no more of them than could name the issues a text may reference.
      if (links.size < maxReferencedIssues * 10) links.add(href);
      return ` ${label} `;
    });
  return findIssueReferences(text, rootUrl, [...links], keywords);
}
