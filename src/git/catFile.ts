// Objects read through a long-lived `git cat-file --batch` per repository, so reading a commit costs a
// pipe round trip instead of a process start. A few readers are kept (least recently used closed first),
// each closed after a short idle time.
//
// A reader sees objects written after it started: git looks a missing object up again after re-reading
// the pack directory. A repository deleted and created again at the same path is a different directory
// (inode): its old reader is closed, never asked.
//
// Objects never change: a small commit, tree or tag read once is kept (per repository directory and its
// identity, as the readers are), so the commit a branch is made from, or the root tree a push is checked
// for workflow files in, costs no pipe round trip the second time.
import type { GitChild } from './spawner.js';
import { statSync } from 'node:fs';
import { gitSpawn } from './core.js';

export interface RawObject {
  type: string;
  body: Buffer;
}

const maxReaders = 8;
const idleMs = 10_000;

class Reader {
  private readonly proc: GitChild;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: Array<{ want: number; resolve: (b: Buffer) => void; reject: (e: Error) => void }> = [];
  private chain: Promise<unknown> = Promise.resolve();
  private idle?: NodeJS.Timeout;
  dead = false;

  constructor(readonly dir: string, readonly ino: string, private readonly onClose: (r: Reader) => void) {
    this.proc = gitSpawn(dir, ['cat-file', '--batch']);
    this.proc.stdout.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
      this.pump();
    });
    this.proc.stderr.resume();
    const fail = () => this.fail(new Error('git cat-file ended'));
    this.proc.on('exit', fail);
    this.proc.on('error', fail);
    this.proc.stdin.on('error', fail);
    this.sleep();
  }

  /** Reads each id in order; a missing object is undefined. One request at a time per reader. */
  read(ids: string[]): Promise<Array<RawObject | undefined>> {
    const run = async () => {
      this.wake();
      try {
        this.proc.stdin.write(ids.map((id) => `${id}\n`).join(''));
        const out: Array<RawObject | undefined> = [];
        for (let i = 0; i < ids.length; i++) {
          const header = (await this.take(-1)).toString('utf8');
          const parts = header.split(' ');
          if (parts.length !== 3) {
            out.push(undefined); // "<id> missing" or "<id> ambiguous"
            continue;
          }
          const body = await this.take(Number(parts[2]) + 1);
          out.push({ type: parts[1]!, body: body.subarray(0, body.length - 1) });
        }
        return out;
      } finally {
        this.sleep();
      }
    };
    const result = this.chain.then(run, run);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** The next line (want -1, without its newline) or the next `want` bytes. */
  private take(want: number): Promise<Buffer> {
    if (this.dead) return Promise.reject(new Error('git cat-file ended'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ want, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.waiting.length) {
      const w = this.waiting[0]!;
      let end: number;
      let skip = 0;
      if (w.want < 0) {
        end = this.buffered.indexOf(0x0a);
        if (end < 0) return;
        skip = 1;
      } else {
        if (this.buffered.length < w.want) return;
        end = w.want;
      }
      const piece = this.buffered.subarray(0, end);
      this.buffered = this.buffered.subarray(end + skip);
      this.waiting.shift();
      w.resolve(piece);
    }
  }

  private wake(): void {
    clearTimeout(this.idle);
    this.proc.ref();
  }

  private sleep(): void {
    // An idle reader never keeps the process alive, and goes away by itself.
    this.proc.unref();
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close(), idleMs);
    this.idle.unref();
  }

  private fail(err: Error): void {
    if (this.dead) return;
    this.dead = true;
    clearTimeout(this.idle);
    for (const w of this.waiting.splice(0)) w.reject(err);
    this.onClose(this);
  }

  close(): void {
    if (this.dead) return;
    this.proc.stdin.end();
    this.proc.kill();
    this.fail(new Error('git cat-file closed'));
  }
}

const readers = new Map<string, Reader>();

function forget(r: Reader): void {
  if (readers.get(r.dir) === r) readers.delete(r.dir);
}

/** The directory's identity: a repository deleted and made again at the same path is another one. */
function identity(dir: string): string {
  const st = statSync(dir);
  return `${st.ino}:${st.birthtimeMs}`;
}

function readerFor(dir: string, ino: string): Reader {
  let r = readers.get(dir);
  if (r && (r.dead || r.ino !== ino)) {
    r.close();
    r = undefined;
  }
  if (r) {
    readers.delete(dir); // re-inserted below: the map's order is least recently used first
  } else {
    r = new Reader(dir, ino, forget);
    while (readers.size >= maxReaders) readers.values().next().value!.close();
  }
  readers.set(dir, r);
  return r;
}

// The kept objects: least recently used first (a Map's order), bounded in bytes; blobs are not kept
// (file contents are read once, and may be large), nor anything over maxKeptObject.
const keptBytesLimit = 8 << 20;
const maxKeptObject = 64 << 10;
const kept = new Map<string, RawObject>();
let keptBytes = 0;
/** A full object id: safe to hand to the cat-file reader (which would read anything else as a revision). */
export const fullId = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

function keep(key: string, o: RawObject): void {
  if (o.type === 'blob' || o.body.length > maxKeptObject || kept.has(key)) return;
  // A copy of its own: the body read is a slice of the pipe's chunk, which it would keep alive.
  const body = Buffer.allocUnsafeSlow(o.body.length);
  o.body.copy(body);
  kept.set(key, { type: o.type, body });
  keptBytes += o.body.length + key.length;
  while (keptBytes > keptBytesLimit) {
    const [k, old] = kept.entries().next().value!;
    kept.delete(k);
    keptBytes -= old.body.length + k.length;
  }
}

async function readFresh(dir: string, ino: string, ids: string[]): Promise<Array<RawObject | undefined>> {
  try {
    return await readerFor(dir, ino).read(ids);
  } catch (err) {
    // The reader died (the repository went away, git was killed): one fresh try, then the error.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
    return readerFor(dir, identity(dir)).read(ids);
  }
}

/**
 * The raw objects of the given ids (undefined where missing), read by the repository's cat-file reader.
 * The bodies are shared with later readers: never change one.
 */
export async function readObjects(dir: string, ids: string[]): Promise<Array<RawObject | undefined>> {
  if (ids.length === 0) return [];
  const ino = identity(dir);
  const prefix = `${ino}\0${dir}\0`;
  const out: Array<RawObject | undefined> = ids.map((id) => {
    const key = prefix + id;
    const o = kept.get(key);
    if (o) {
      kept.delete(key); // re-inserted: most recently used last
      kept.set(key, o);
    }
    return o;
  });
  const missing = ids.filter((_, i) => !out[i]);
  if (missing.length === 0) return out;
  const read = await readFresh(dir, ino, missing);
  let j = 0;
  ids.forEach((id, i) => {
    if (out[i]) return;
    const o = read[j++];
    out[i] = o;
    // Only what was asked by its full id: anything else is a revision, whose answer may change.
    if (o && fullId.test(id)) keep(prefix + id, o);
  });
  return out;
}

/** Closes every reader and forgets the kept objects (the app's shutdown; tests between repositories). */
export function closeObjectReaders(): void {
  for (const r of [...readers.values()]) r.close();
  kept.clear();
  keptBytes = 0;
}
