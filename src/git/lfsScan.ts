// The Git LFS pointers a repository's refs reach (migrations and pull mirrors bring their objects, #39/#40),
// found as Gitea's SearchPointerBlobs finds them: every blob reachable from any ref, smaller than 1024
// bytes, whose content is a pointer.
import { git, gitBuffer } from './core.js';
import { parsePointer } from './lfsPointer.js';

/** Pointers are small; Gitea reads blobs below this size only. */
const cutoff = 1024;
/** Blobs read by one `cat-file --batch`: its answer is at most about a megabyte. */
export const blobsPerRead = 1_000;

/** The distinct `{oid, size}` of every LFS pointer reachable from the refs of the bare repository `dir`. */
export async function reachablePointers(dir: string): Promise<Array<{ oid: string; size: number }>> {
  // Blobs of `cutoff` bytes or more are left out by git itself.
  const listed = await git(dir, ['rev-list', '--objects', '--all', `--filter=blob:limit=${cutoff}`]);
  const ids = [...new Set(listed.stdout.split('\n').map((l) => l.slice(0, l.indexOf(' ') < 0 ? l.length : l.indexOf(' '))).filter(Boolean))];
  if (ids.length === 0) return [];
  const checked = await git(dir, ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], { stdin: `${ids.join('\n')}\n` });
  const blobs: string[] = [];
  for (const line of checked.stdout.split('\n')) {
    const [id, type, size] = line.split(' ');
    // The smallest pointer (version, oid and size lines) is longer than 100 bytes.
    if (id && type === 'blob' && Number(size) >= 100 && Number(size) < cutoff) blobs.push(id);
  }
  // Read a batch of blobs at a time: all of a repository's small blobs in one buffer would be up to a
  // kilobyte times their number (a hostile source may have millions).
  const found = new Map<string, number>();
  for (let i = 0; i < blobs.length; i += blobsPerRead) {
    const out = await gitBuffer(dir, ['cat-file', '--batch'], { stdin: `${blobs.slice(i, i + blobsPerRead).join('\n')}\n` });
    readPointers(out, found);
  }
  return [...found].map(([oid, size]) => ({ oid, size }));
}

/** The pointers among `cat-file --batch`'s answer `out`, added to `found` (oid → size). */
function readPointers(out: Buffer, found: Map<string, number>): void {
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const [, type, sizeText] = out.subarray(at, eol).toString('utf8').split(' ');
    if (type === 'missing') {
      at = eol + 1;
      continue;
    }
    const size = Number(sizeText);
    if (type === undefined || !Number.isSafeInteger(size)) break;
    const content = out.subarray(eol + 1, eol + 1 + size);
    at = eol + 1 + size + 1;
    const pointer = parsePointer(content);
    if (pointer && !found.has(pointer.oid)) found.set(pointer.oid, pointer.size);
  }
}
