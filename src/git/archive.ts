// An archive of a commit, streamed as git writes it (never held in memory): zip, or tar through gzip.
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { gitSpawn } from './core.js';

export type ArchiveFormat = 'zip' | 'tar.gz';

/** The archive's bytes; destroying the stream (a client gone) stops git. */
export function archiveStream(dir: string, commit: string, format: ArchiveFormat, prefix: string): Readable {
  const child = gitSpawn(dir, ['archive', `--format=${format === 'zip' ? 'zip' : 'tar'}`, `--prefix=${prefix}`, commit]);
  child.stdin.end();
  child.stderr.resume();
  const out = new PassThrough();
  let done = false;
  child.on('close', (code: number | null) => {
    done = true;
    if (code !== 0) out.destroy(new Error(`git archive failed (${code})`));
  });
  out.on('close', () => {
    if (!done) child.kill();
  });
  if (format === 'zip') pipeline(child.stdout, out, () => undefined);
  else pipeline(child.stdout, createGzip(), out, () => undefined);
  return out;
}
