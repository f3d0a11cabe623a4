// Gitea's `.gitea/template` of a template repository, as its generator reads it: glob patterns (one a
// line, `#` comments; Gitea's `[expand]` and `[exclude]` sections) of the files whose paths and contents
// get variable expansion, or that are left out of the generated repository. Pure: strings in, strings
// out. Paths and contents are "binary strings" (one character per byte, latin1), so that what is not
// UTF-8 passes through unchanged, as Gitea's byte-wise expansion does.

/** The values a generated repository's variables take. Names and descriptions as UTF-8 text. */
export interface TemplateVars {
  repoName: string;
  repoOwner: string;
  repoDescription: string;
  repoLink: string;
  repoHttpsUrl: string;
  repoSshUrl: string;
  templateName: string;
  templateOwner: string;
  templateDescription: string;
  templateLink: string;
  templateHttpsUrl: string;
  templateSshUrl: string;
  now: Date;
}

// --- case transformers (Gitea's: xstrings' snake, kebab, camel and pascal case; lower; upper; title) ---

const isUpper = (c: string) => /\p{Lu}/u.test(c);
const isLetter = (c: string) => /\p{L}/u.test(c);
const isNumber = (c: string) => /\p{N}/u.test(c);
const isPunct = (c: string) => /\p{P}/u.test(c);
// Go's unicode.IsSpace.
const isSpace = (c: string) => /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u.test(c);
const isConnector = (c: string) => c === '-' || c === '_' || isSpace(c);
// xstrings' isAlphabet: a letter that is not a CJK character.
const isAlphabet = (c: string) => isLetter(c) && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(c);

type WordType = 'number' | 'upper' | 'alphabet' | 'connector' | 'punct' | 'other';

/** The next word of `s` (code points) from `i`, as xstrings' nextWord splits words. */
function nextWord(s: string[], i: number): { type: WordType; end: number } {
  const c = s[i]!;
  let j = i + 1;
  if (isConnector(c)) {
    while (j < s.length && isConnector(s[j]!)) j++;
    return { type: 'connector', end: j };
  }
  if (isPunct(c)) {
    while (j < s.length && isPunct(s[j]!)) j++;
    return { type: 'punct', end: j };
  }
  if (isUpper(c)) {
    if (j < s.length && isUpper(s[j]!)) {
      while (j < s.length && isUpper(s[j]!)) j++;
      // "HTTPServer": the last capital starts the next word.
      if (j < s.length && isAlphabet(s[j]!)) j--;
    } else if (j < s.length && isAlphabet(s[j]!)) {
      while (j < s.length && isAlphabet(s[j]!) && !isUpper(s[j]!)) j++;
    }
    return { type: 'upper', end: j };
  }
  if (isAlphabet(c)) {
    while (j < s.length && isAlphabet(s[j]!) && !isUpper(s[j]!)) j++;
    return { type: 'alphabet', end: j };
  }
  if (isNumber(c)) {
    while (j < s.length && isNumber(s[j]!)) j++;
    return { type: 'number', end: j };
  }
  while (j < s.length && !isConnector(s[j]!) && !isAlphabet(s[j]!) && !isNumber(s[j]!) && !isPunct(s[j]!)) j++;
  return { type: 'other', end: j };
}

/** xstrings' camelCaseToLowerCase: words joined by `connector`, lower-cased. */
function toLowerWords(str: string, connector: string): string {
  const s = [...str];
  if (s.length === 0) return '';
  let out = '';
  const lower = (type: WordType, word: string) => {
    if (type !== 'upper' && type !== 'connector') out += word;
    else for (const c of word) out += isConnector(c) ? connector : c.toLowerCase();
  };
  let pos = 0;
  const next = () => {
    if (pos >= s.length) return { type: undefined, word: '' };
    const w = nextWord(s, pos);
    const word = s.slice(pos, w.end).join('');
    pos = w.end;
    return { type: w.type as WordType | undefined, word };
  };
  let { type: wt, word } = next();
  while (pos < s.length) {
    if (wt !== 'connector') lower(wt!, word);
    const prev = wt;
    const last = word;
    ({ type: wt, word } = next());
    switch (prev) {
      case 'number':
        while (wt === 'alphabet' || wt === 'number') {
          lower(wt, word);
          ({ type: wt, word } = next());
        }
        if (wt !== undefined && wt !== 'punct' && wt !== 'connector') out += connector;
        break;
      case 'connector':
        lower(prev, last);
        break;
      case 'punct':
        break;
      default: {
        if (wt !== 'number') {
          if (wt !== 'connector' && wt !== 'punct') out += connector;
          break;
        }
        if (pos >= s.length) break;
        const num = word;
        ({ type: wt, word } = next());
        if (wt !== 'alphabet') {
          lower('number', num);
          if (wt !== 'connector' && wt !== 'punct') out += connector;
          break;
        }
        out += connector;
        lower('number', num);
        while (wt === 'alphabet' || wt === 'number') {
          lower(wt, word);
          ({ type: wt, word } = next());
        }
        if (wt !== undefined && wt !== 'connector' && wt !== 'punct') out += connector;
      }
    }
  }
  if (wt !== undefined) lower(wt, word);
  return out;
}

/** xstrings' toCamelCase (`big`: PascalCase): connectors dropped, each word capitalized, capital runs lowered. */
function toCamel(str: string, big: boolean): string {
  const s = [...str];
  if (s.length === 0) return '';
  let out = '';
  let i = 0;
  let firstUpper = false;
  let r0 = '';
  for (; i < s.length; i++) {
    r0 = s[i]!;
    if (!isConnector(r0)) {
      firstUpper = isUpper(r0);
      r0 = big ? r0.toUpperCase() : r0.toLowerCase();
      i++;
      break;
    }
    out += r0;
  }
  if (i >= s.length) return isConnector(r0) ? out : out + r0;
  for (; i < s.length; i++) {
    const r1 = r0;
    r0 = s[i]!;
    if (isConnector(r0) && isConnector(r1)) {
      out += r1;
      continue;
    }
    if (isConnector(r1)) {
      firstUpper = isUpper(r0);
      r0 = r0.toUpperCase();
    } else {
      if (firstUpper) {
        if (isUpper(r0)) r0 = r0.toLowerCase();
        else firstUpper = false;
      }
      out += r1;
    }
  }
  return out + r0;
}

/** Title case as golang.org/x/text's cases.Title: each word's first letter upper, the rest lower. */
function toTitle(str: string): string {
  const s = [...str];
  let out = '';
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const wordChar = isLetter(c) || isNumber(c) || c === '_' || /\p{M}/u.test(c);
    // A full stop, apostrophe or colon between letters does not end a word (Unicode word boundaries).
    const joiner = (c === '.' || c === "'" || c === ':') && inWord && i + 1 < s.length && isLetter(s[i + 1]!) && isLetter(s[i - 1]!);
    if (wordChar || joiner) {
      out += inWord ? c.toLowerCase() : c.toUpperCase();
      inWord = true;
    } else {
      out += c;
      inWord = false;
    }
  }
  return out;
}

export const transformers: ReadonlyArray<[string, (s: string) => string]> = [
  ['SNAKE', (s) => toLowerWords(s, '_')],
  ['KEBAB', (s) => toLowerWords(s, '-')],
  ['CAMEL', (s) => toCamel(s, false)],
  ['PASCAL', (s) => toCamel(s, true)],
  ['LOWER', (s) => s.toLowerCase()],
  ['UPPER', (s) => s.toUpperCase()],
  ['TITLE', toTitle],
];

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Every variable name and its value (as a binary string), Gitea's list: each with its case variants where Gitea has them. */
export function variableMap(v: TemplateVars): Map<string, string> {
  const pad = (n: number) => String(n).padStart(2, '0');
  const list: Array<[string, string, boolean]> = [
    ['YEAR', String(v.now.getUTCFullYear()), false],
    ['MONTH', pad(v.now.getUTCMonth() + 1), false],
    ['MONTH_ENGLISH', months[v.now.getUTCMonth()]!, true],
    ['DAY', pad(v.now.getUTCDate()), false],
    ['REPO_NAME', v.repoName, true],
    ['TEMPLATE_NAME', v.templateName, true],
    ['REPO_DESCRIPTION', v.repoDescription, false],
    ['TEMPLATE_DESCRIPTION', v.templateDescription, false],
    ['REPO_OWNER', v.repoOwner, true],
    ['TEMPLATE_OWNER', v.templateOwner, true],
    ['REPO_LINK', v.repoLink, false],
    ['TEMPLATE_LINK', v.templateLink, false],
    ['REPO_HTTPS_URL', v.repoHttpsUrl, false],
    ['TEMPLATE_HTTPS_URL', v.templateHttpsUrl, false],
    ['REPO_SSH_URL', v.repoSshUrl, false],
    ['TEMPLATE_SSH_URL', v.templateSshUrl, false],
  ];
  const binary = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
  const map = new Map<string, string>();
  for (const [name, value, variants] of list) {
    map.set(name, binary(value));
    if (variants) for (const [suffix, fn] of transformers) map.set(`${name}_${suffix}`, binary(fn(value)));
  }
  return map;
}

const isShellSpecial = (c: string) => '*#$@!?-0123456789'.includes(c);
const isAlphaNum = (c: string) => /^[A-Za-z0-9_]$/.test(c);

/**
 * Go's os.Expand with Gitea's mapping: `$NAME` and `${NAME}` become the variable's value; an unknown name
 * becomes the name itself (its `$` dropped, as in Gitea); `$` before anything that is no name stays.
 */
export function expand(src: string, vars: Map<string, string>): string {
  let out = '';
  let i = 0;
  for (let j = 0; j < src.length; j++) {
    if (src[j] !== '$' || j + 1 >= src.length) continue;
    out += src.slice(i, j);
    const rest = src.slice(j + 1);
    let name = '';
    let w = 0;
    if (rest[0] === '{') {
      if (rest.length > 2 && isShellSpecial(rest[1]!) && rest[2] === '}') {
        name = rest[1]!;
        w = 3;
      } else {
        const close = rest.indexOf('}', 1);
        if (close === 1) w = 2; // "${}": bad syntax, eaten
        else if (close < 0) w = 1; // "${" without "}": eaten
        else {
          name = rest.slice(1, close);
          w = close + 1;
        }
      }
    } else if (isShellSpecial(rest[0]!)) {
      name = rest[0]!;
      w = 1;
    } else {
      while (w < rest.length && isAlphaNum(rest[w]!)) w++;
      name = rest.slice(0, w);
    }
    if (name === '' && w === 0) out += '$';
    else if (name !== '') out += vars.get(name) ?? name;
    j += w;
    i = j + 1;
  }
  return out + src.slice(i);
}

// --- globs (Gitea's modules/glob with '/' as the separator) ---

/**
 * A glob of `.gitea/template` as a RegExp over a whole path: `*` any characters but `/`, `**` any
 * characters, `?` one character but `/`, `[abc]`/`[!abc]`/`[a-z]`, `{a,b}`, `\x`. Undefined when invalid
 * (Gitea skips such a line).
 */
export function templateGlob(glob: string): RegExp | undefined {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') {
      if (i + 1 >= glob.length) return undefined;
      out += escapeRe(glob[++i]!);
    } else if (c === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        i++;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) return undefined;
      let body = glob.slice(i + 1, end);
      const negated = body.startsWith('!');
      if (negated) body = body.slice(1);
      if (!body) return undefined;
      out += negated ? `(?!/)[^${body.replace(/[\\\]^]/g, '\\$&')}]` : `[${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (c === '{') {
      out += '(?:';
      depth++;
    } else if (c === '}') {
      if (!depth) return undefined;
      out += ')';
      depth--;
    } else if (c === ',' && depth) out += '|';
    else out += escapeRe(c);
  }
  if (depth) return undefined;
  try {
    return new RegExp(`^${out}$`, 's');
  } catch {
    return undefined;
  }
}
const escapeRe = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export interface TemplateRules {
  expand: RegExp[];
  exclude: RegExp[];
}

/** Reads `.gitea/template`: lines trimmed, blank and `#` lines skipped, `[expand]`/`[exclude]` switch sections (expand first). */
export function parseTemplateFile(content: string): TemplateRules {
  const rules: TemplateRules = { expand: [], exclude: [] };
  let current = rules.expand;
  for (const raw of content.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      if (line === '[expand]') current = rules.expand;
      else if (line === '[exclude]') current = rules.exclude;
      continue;
    }
    const re = templateGlob(line);
    if (re) current.push(re);
  }
  return rules;
}

const reservedName = /[<>:"/\\|?*\x00-\x1f]|^(con|prn|aux|nul|com\d|lpt\d)$/gi;

/** Gitea's filePathSanitize of an expanded path: reserved characters and names to `_`, no `..` or `.git` parts; '' for no path at all. */
export function sanitizePath(path: string): string {
  const fields = path.split('/').map((f) => {
    let field = f.replace(reservedName, '_').trim();
    if (field.startsWith('..')) field = `__${field.slice(2)}`;
    if (field.toLowerCase() === '.git') field = `_${field.slice(1)}`;
    return field;
  });
  return fields.filter((f) => f !== '' && f !== '.').join('/');
}

/** One entry of a tree listing: `mode` as git writes it, `id` the blob or (for a submodule) commit. */
export interface TemplateEntry {
  path: string;
  mode: string;
  id: string;
}

export interface PlannedEntry extends TemplateEntry {
  /** The expanded content to write instead of `id`'s, when the file was expanded. */
  content?: string;
}

/** The largest file Gitea reads for expansion (1 MiB); larger ones are copied as they are. */
export const MAX_EXPANDED_FILE = 1024 * 1024;

/**
 * The generated repository's files from the template's: `.gitea/template` itself left out, files and
 * folders an exclude pattern matches left out, and regular files an expand pattern matches given an
 * expanded path and content (`read` gives a file's content as a binary string). Symbolic links and
 * submodules are copied as they are. A later path replaces an earlier one that expands to it.
 */
export async function planTemplate(
  entries: TemplateEntry[], rules: TemplateRules | undefined, vars: Map<string, string>,
  read: (entry: TemplateEntry) => Promise<string | undefined>,
): Promise<PlannedEntry[]> {
  const result = new Map<string, PlannedEntry>();
  const kept = rules ? entries.filter((e) => e.path !== '.gitea/template') : entries;
  const excluded = (path: string) => {
    if (!rules?.exclude.length) return false;
    const parts = path.split('/');
    for (let n = 1; n <= parts.length; n++) if (rules.exclude.some((re) => re.test(parts.slice(0, n).join('/')))) return true;
    return false;
  };
  const expands: TemplateEntry[] = [];
  for (const e of kept) {
    if (excluded(e.path)) continue;
    const regular = e.mode === '100644' || e.mode === '100755';
    if (rules && regular && rules.expand.some((re) => re.test(e.path))) expands.push(e);
    else result.set(e.path, e);
  }
  for (const e of expands) {
    const content = await read(e);
    if (content === undefined) {
      result.set(e.path, e);
      continue;
    }
    const target = sanitizePath(expand(e.path, vars));
    // A path that expands to nothing, or onto a symbolic link, a submodule or below a file, keeps its own.
    const clash = (p: string) => {
      const there = result.get(p);
      return there !== undefined && there.mode !== '100644' && there.mode !== '100755';
    };
    const underFile = (p: string) => {
      const parts = p.split('/');
      for (let n = 1; n < parts.length; n++) if (result.has(parts.slice(0, n).join('/'))) return true;
      return false;
    };
    const path = target === '' || clash(target) || underFile(target) ? e.path : target;
    result.set(path, { ...e, path, content: expand(content, vars) });
  }
  // Nothing may end up both a file and a folder: a file below another kept file goes.
  const paths = new Set(result.keys());
  return [...result.values()]
    .filter((e) => {
      const parts = e.path.split('/');
      for (let n = 1; n < parts.length; n++) if (paths.has(parts.slice(0, n).join('/'))) return false;
      return true;
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
