// Refs read straight from a bare repository's files (loose refs under refs/, then packed-refs), as git's
// own "files" ref store reads them, so the hot paths (create branch, diffpatch, branch counts) spawn no
// git process to learn a tip. Anything this reader is not sure of (a reftable store, a symbolic ref, a
// malformed file) answers undefined and the caller asks git instead.
//
// Consistency with concurrent writers follows git's own reader: writers replace a loose ref by renaming a
// lock file over it (atomic), pack-refs writes packed-refs before it removes the loose files, and a
// delete rewrites packed-refs before it unlinks the loose file. Reading the loose files first and
// packed-refs after therefore sees, for every ref, a value it had at some moment of the read.
//
// The reads are synchronous, as git's are: a ref file and a directory listing are a few microseconds from
// the page cache, where a promise of each costs a trip through libuv's thread pool and back (half a
// millisecond per ref read under load, #13). The functions stay async for their callers.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A full branch or tag name with nothing git would read as a revision expression. */
const plainRef = /^refs\/(heads|tags)\/[^\0-\x20\x7f~^:?*[\\]+$/;

/** A branch or tag name that is also a safe path below the repository (no `..`, `/.`, `//`, `.lock` part). */
export const isPlainRefName = (ref: string) => plainRef.test(ref) && !/\.\.|\/\.|\/\/|\.lock$|\.lock\/|\/$/.test(ref);
const oidLine = /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/;

/** Not something this reader answers for: the caller asks git. */
export class Unsure extends Error {}

export function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Gone (deleted or packed meanwhile), a directory of refs below a name, or a name longer than a file's
    // may be (git could never have written it as a loose ref; packed-refs is read next): not a ref file.
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') return undefined;
    throw err;
  }
}

export function looseValue(content: string): string {
  const m = oidLine.exec(content);
  if (!m) throw new Unsure(); // a symbolic ref ("ref: …") or something git would have to judge
  return m[1]!;
}

function walkLoose(dir: string, rel: string, out: Map<string, string>): void {
  let entries;
  try {
    entries = readdirSync(join(dir, rel), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const e of entries) {
    const name = `${rel}/${e.name}`;
    if (e.isDirectory()) walkLoose(dir, name, out);
    else if (e.isFile()) {
      if (e.name.endsWith('.lock')) continue; // a writer's lock, never a ref
      const content = readOptional(join(dir, name));
      if (content !== undefined) out.set(name, looseValue(content));
    } else throw new Unsure();
  }
}

function walkLooseNames(dir: string, rel: string, out: Set<string>): void {
  let entries;
  try {
    entries = readdirSync(join(dir, rel), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const e of entries) {
    const name = `${rel}/${e.name}`;
    if (e.isDirectory()) walkLooseNames(dir, name, out);
    else if (e.isFile()) {
      if (!e.name.endsWith('.lock')) out.add(name);
    } else throw new Unsure();
  }
}

/** packed-refs as ref → object (the peeled `^` lines are skipped: callers want the ref's own object). */
export function readPacked(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const text = readOptional(join(dir, 'packed-refs'));
  if (!text) return out;
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    const oid = line.slice(0, space);
    if (space < 0 || !oidLine.test(oid)) throw new Unsure();
    out.set(line.slice(space + 1), oid);
  }
  return out;
}

export function filesStore(dir: string): boolean {
  // git ≥ 2.45 may keep refs in a reftable instead; then only git reads them.
  return !existsSync(join(dir, 'reftable'));
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * Every ref under the given prefixes (`refs/heads`, `refs/tags`) with the object it names, sorted by name
 * as for-each-ref sorts; undefined when git must be asked.
 */
export async function readRefs(dir: string, prefixes: string[]): Promise<Map<string, string> | undefined> {
  if (!filesStore(dir)) return undefined;
  try {
    const loose = new Map<string, string>();
    for (const p of prefixes) walkLoose(dir, p, loose);
    const packed = readPacked(dir);
    const all = new Map(loose);
    for (const [ref, oid] of packed) {
      if (!all.has(ref) && prefixes.some((p) => ref.startsWith(`${p}/`))) all.set(ref, oid);
    }
    return new Map([...all].sort(([a], [b]) => byteOrder(a, b)));
  } catch (err) {
    if (err instanceof Unsure) return undefined;
    throw err;
  }
}

/**
 * The object one full ref (`refs/heads/main`) names: a string, null when there is no such ref, undefined
 * when git must be asked.
 */
export async function readRef(dir: string, ref: string): Promise<string | null | undefined> {
  if (!isPlainRefName(ref) || !filesStore(dir)) return undefined;
  try {
    const content = readOptional(join(dir, ref));
    if (content !== undefined) return looseValue(content);
    return readPacked(dir).get(ref) ?? null;
  } catch (err) {
    if (err instanceof Unsure) return undefined;
    throw err;
  }
}

/**
 * The names of the refs under the given prefixes, read from directory listings and packed-refs only (no
 * ref file is opened: one read per directory, whatever the number of refs); undefined when git must be asked.
 */
export async function readRefNames(dir: string, prefixes: string[]): Promise<Set<string> | undefined> {
  if (!filesStore(dir)) return undefined;
  try {
    const names = new Set<string>();
    for (const p of prefixes) walkLooseNames(dir, p, names);
    for (const ref of readPacked(dir).keys()) {
      if (prefixes.some((p) => ref.startsWith(`${p}/`))) names.add(ref);
    }
    return names;
  } catch (err) {
    if (err instanceof Unsure) return undefined;
    throw err;
  }
}
