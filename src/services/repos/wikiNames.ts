// Gitea's wiki naming (services/wiki/wiki_path.go), pure: a title becomes a web path (`sub_url`), a
// web path becomes a git file name and back. Go works on bytes, so the round trips here run on
// "binary strings" (one char per UTF-8 byte, latin1): `%FF` survives unescape-then-escape as it does
// in Go. Web paths made from titles are query-escaped, so they never hold `/`, `\`, NUL or a dot
// segment, and their git file is always one top-level `*.md` entry of the wiki's tree.

/** The UTF-8 bytes of `s` as a binary string; a lone surrogate becomes U+FFFD, as Go's JSON decoder does. */
const toBin = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
const fromBin = (b: string) => Buffer.from(b, 'latin1').toString('utf8');

const unreserved = /[A-Za-z0-9\-_.~]/;

/** Go's url.QueryEscape on a binary string: space → `+`, everything outside [A-Za-z0-9-_.~] → `%XX`. */
export function queryEscapeBin(bin: string): string {
  let out = '';
  for (const c of bin) {
    if (unreserved.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Go's url.QueryEscape of a (UTF-8) string. */
export const queryEscape = (s: string) => queryEscapeBin(toBin(s));

/** Go's url.QueryUnescape (`plus`) or url.PathUnescape on a binary string; undefined where Go fails. */
function unescapeBin(bin: string, plus: boolean): string | undefined {
  let out = '';
  for (let i = 0; i < bin.length; i++) {
    const c = bin[i]!;
    if (c === '%') {
      const hex = bin.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 2;
    } else out += plus && c === '+' ? ' ' : c;
  }
  return out;
}

/** Go's url.QueryUnescape of a string, answered as UTF-8 text (invalid bytes → U+FFFD); undefined on a bad escape. */
export function queryUnescape(s: string): string | undefined {
  const bin = unescapeBin(toBin(s), true);
  return bin === undefined ? undefined : fromBin(bin);
}

const dashMarker = '.-';

function unescapeSegment(bin: string): { value: string; ok: boolean } {
  const s = bin.endsWith(dashMarker) ? bin.slice(0, -dashMarker.length) : bin.replaceAll('-', ' ');
  const value = unescapeBin(s, true);
  return value === undefined ? { value: s, ok: false } : { value, ok: true };
}

function escapeSegToWeb(bin: string, hadDashMarker: boolean): string {
  const s = hadDashMarker || bin.includes('-') || bin.endsWith('.md') ? bin + dashMarker : bin.replaceAll(' ', '-');
  return queryEscapeBin(s);
}

/** Go's path.Clean of a rooted path. */
function cleanRooted(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

/** Gitea's util.PathJoinRelX for one element: backslashes are slashes, cleaned, never above the root. */
function pathJoinRelX(s: string): string {
  if (s === '') return '';
  const c = cleanRooted(`/${s.replaceAll('\\', '/')}`);
  return c === '/' ? '.' : c.slice(1);
}

/** Gitea's UserTitleToWebPath: the `sub_url` of a page with this title. */
export function userTitleToWebPath(title: string): string {
  const web = pathJoinRelX(escapeSegToWeb(toBin(goTrimSpace(title)), false));
  return web === '' || web === '.' ? 'unnamed' : web;
}

/** Gitea's WebPathFromRequest: a page name from a URL, cleaned, with any slash kept inside the one segment. */
export function webPathFromRequest(name: string): string {
  return pathJoinRelX(name).replaceAll('/', '%2F');
}

/**
 * Gitea's WebPathToGitPath: the file (relative to the wiki's root) that holds the page; a name ending in
 * `.md` is the file name itself. Undefined when the result is no usable file path (empty, a dot segment).
 */
export function webPathToGitPath(webPath: string): string | undefined {
  const bin = toBin(webPath);
  let path: string;
  if (bin.endsWith('.md')) {
    path = pathJoinRelX(fromBin(unescapeBin(bin, false) ?? ''));
  } else {
    path = bin
      .split('/')
      .map((seg) => {
        const marked = seg.endsWith(dashMarker);
        return escapeSegToWeb(unescapeSegment(seg).value, marked).replaceAll('%20', ' ').replaceAll('+', ' ');
      })
      .join('/') + '.md';
  }
  return isSafeGitPath(path) ? path : undefined;
}

/** A relative path inside the tree: no NUL, no empty, `.` or `..` segment, not absolute. */
export function isSafeGitPath(path: string): boolean {
  return path !== '' && !path.includes('\0') && path.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/** Gitea's fallback for pages written before names were escaped: the git path query-unescaped. */
export function legacyGitPath(gitPath: string): string | undefined {
  const path = queryUnescape(gitPath);
  return path !== undefined && path !== gitPath && isSafeGitPath(path) ? path : undefined;
}

/** Gitea's GitPathToWebPath: the web path of a wiki file; undefined for a file that is no page. */
export function gitPathToWebPath(gitPath: string): string | undefined {
  if (!gitPath.endsWith('.md')) return undefined;
  const segs: string[] = [];
  for (const seg of toBin(gitPath.slice(0, -3)).split('/')) {
    const u = unescapeSegment(seg);
    if (!u.ok) return undefined;
    segs.push(escapeSegToWeb(u.value, seg.endsWith(dashMarker)));
  }
  return segs.join('/');
}

/** Gitea's WebPathToUserTitle: the title shown for a web path. */
export function webPathToUserTitle(webPath: string): string {
  let display = toBin(webPath.slice(webPath.lastIndexOf('/') + 1));
  // Go's url.PathUnescape answers "" on a bad escape, and Gitea ignores the error.
  if (display.endsWith('.md')) display = unescapeBin(display.slice(0, -3), false) ?? '';
  return fromBin(unescapeSegment(display).value);
}

const reservedNames = new Set(['_pages', '_new', '_edit', 'raw']);

/** The reserved segment of a web path (Gitea's validateWebPath), if any. */
export function reservedSegment(webPath: string): string | undefined {
  return toBin(webPath)
    .split('/')
    .map((seg) => fromBin(unescapeSegment(seg).value))
    .find((seg) => reservedNames.has(seg));
}

// Go's unicode.IsSpace: ASCII spaces, NEL, NBSP and the White_Space characters (not U+FEFF, unlike JS trim).
const goSpace = '[\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]';
const goTrim = new RegExp(`^${goSpace}+|${goSpace}+$`, 'gu');

/** Go's strings.TrimSpace. */
export function goTrimSpace(s: string): string {
  return s.replace(goTrim, '');
}

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const shortEscapes: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };

/** Go's strconv.Quote (`%q`): printable runes as they are, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of fromBin(toBin(s))) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (printable.test(ch)) out += ch;
    else if (shortEscapes[ch]) out += shortEscapes[ch];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
