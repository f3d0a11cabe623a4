// Git notes (`refs/notes/commits`), as `git notes` writes them: a blob named by the annotated object's id
// in the notes ref's tree, at the top or fanned out (`ab/cdef…`, `ab/cd/ef…`) once the tree grows.
import { fullId } from './catFile.js';
import { git } from './core.js';
import { readBlob } from './objects.js';
import { resolveCommit } from './refs.js';

export const notesRef = 'refs/notes/commits';

export interface NoteBlob {
  /** The note's text. */
  message: Buffer;
  /** Where the note is in the notes ref's tree. */
  path: string;
  /** The notes ref's commit it was read from. */
  notesCommit: string;
}

/** The note of object `id` (a full id); undefined when the notes ref or the note does not exist. */
export async function readNote(dir: string, id: string): Promise<NoteBlob | undefined> {
  if (!fullId.test(id)) return undefined;
  const notesCommit = await resolveCommit(dir, notesRef);
  if (!notesCommit) return undefined;
  const candidates = [id];
  for (let depth = 1; depth < id.length / 2 - 1; depth++) {
    const parts = Array.from({ length: depth }, (_, i) => id.slice(2 * i, 2 * i + 2));
    candidates.push(`${parts.join('/')}/${id.slice(2 * depth)}`);
  }
  // One ls-tree for every fan-out at once; git lists the ones that exist.
  const { stdout } = await git(dir, ['ls-tree', '-z', '--full-tree', notesCommit, '--', ...candidates.slice(0, 4)]);
  for (const line of stdout.split('\0').filter(Boolean)) {
    const tab = line.indexOf('\t');
    const [, type, blob] = line.slice(0, tab).split(/\s+/);
    const path = line.slice(tab + 1);
    if (type === 'blob' && candidates.includes(path)) return { message: await readBlob(dir, blob!), path, notesCommit };
  }
  return undefined;
}
