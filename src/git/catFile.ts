// Objects read through a long-lived `git cat-file --batch` per repository, so reading a commit costs a
// pipe round trip instead of a process start. A few readers are kept (least recently used closed first),
// each closed after a short idle time.
//
// A reader sees objects written after it started: git looks a missing object up again after re-reading
// the pack directory. A repository deleted and created again at the same path is a different directory
// (inode): its old reader is closed, never asked.
import type { GitChild } from './spawner.js';
import { stat } from 'node:fs/promises';
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

  constructor(readonly dir: string, readonly ino: number, private readonly onClose: (r: Reader) => void) {
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

async function readerFor(dir: string): Promise<Reader> {
  const { ino } = await stat(dir);
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

/** The raw objects of the given ids (undefined where missing), read by the repository's cat-file reader. */
export async function readObjects(dir: string, ids: string[]): Promise<Array<RawObject | undefined>> {
  if (ids.length === 0) return [];
  try {
    return await (await readerFor(dir)).read(ids);
  } catch (err) {
    // The reader died (the repository went away, git was killed): one fresh try, then the error.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
    return (await readerFor(dir)).read(ids);
  }
}

/** Closes every reader (the app's shutdown; tests between repositories). */
export function closeObjectReaders(): void {
  for (const r of [...readers.values()]) r.close();
}
