// Moving repository folders around a database transaction so that a crash (kill -9) at any point leaves
// something a live process can mend. Every move is journalled first, as a leased row (`folder_journals`,
// written and committed through a JournalStore before anything moves, renewed while the move runs):
//   - a deletion moves the folders into `tmp/deleting-<uuid>/` (the journal names the repository and
//     where each folder came from); the rows go in the transaction; then the folder goes and the journal
//     with it. Killed before the commit: the repository's row is still there, so the folders go back.
//   - a creation builds the repository in `tmp/scratch-<uuid>.git` (the journal names the owner, the
//     lower-case name, the final path and the scratch folder), moves it into place inside the transaction
//     that inserts its row, and drops the journal after the commit. Killed in between: no row, so the
//     folder goes.
// A journal whose lease lapsed (its process died) is mended by whichever live process claims it
// (mendDelete, mendCreate), within seconds and on any host sharing the data folder.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const tmpOf = (dataDir: string) => join(dataDir, 'tmp');

export interface DeleteJournal {
  repoId: number;
  trash: string;
  /** [original path, path inside the trash folder] */
  moves: Array<[string, string]>;
}

export interface CreateJournal {
  ownerId: number;
  lowerName: string;
  final: string;
  scratch: string;
}

export type Journal = { kind: 'delete'; data: DeleteJournal } | { kind: 'create'; data: CreateJournal };

/** Where journals are kept: `open` answers once the journal is durable (and leased); `close` drops it. */
export interface JournalStore {
  open(journal: Journal): Promise<{ close(): Promise<void> }>;
}

/** Moves `folders` (those that exist) aside for the deletion of repository `repoId`; undo or finish it. */
export async function moveAsideForDelete(dataDir: string, repoId: number, folders: string[], store: JournalStore): Promise<{ undo(): Promise<void>; finish(): Promise<void> }> {
  const trash = join(tmpOf(dataDir), `deleting-${randomUUID()}`);
  const moves: Array<[string, string]> = folders.filter((f) => existsSync(f)).map((f, i) => [f, join(trash, String(i))]);
  const journal = await store.open({ kind: 'delete', data: { repoId, trash, moves } });
  const done: Array<[string, string]> = [];
  try {
    mkdirSync(trash, { recursive: true });
    for (const m of moves) {
      renameSync(m[0], m[1]);
      done.push(m);
    }
  } catch (err) {
    for (const [from, to] of done.reverse()) renameSync(to, from);
    rmSync(trash, { recursive: true, force: true });
    await journal.close();
    throw err;
  }
  return {
    async undo() {
      for (const [from, to] of moves) if (existsSync(to)) renameSync(to, from);
      rmSync(trash, { recursive: true, force: true });
      await journal.close();
    },
    async finish() {
      rmSync(trash, { recursive: true, force: true });
      await journal.close();
    },
  };
}

/**
 * Journals the creation of a repository at `final` before it is built in `scratch`: `place` moves it
 * into place (inside the transaction that inserts its row), `committed` after the commit, `abandon` when
 * the transaction failed.
 */
export async function beginCreate(dataDir: string, ownerId: number, lowerName: string, final: string, store: JournalStore) {
  mkdirSync(tmpOf(dataDir), { recursive: true });
  const scratch = join(tmpOf(dataDir), `scratch-${randomUUID()}.git`);
  const journal = await store.open({ kind: 'create', data: { ownerId, lowerName, final, scratch } });
  let placed = false;
  return {
    scratch,
    /** Moves the scratch folder into place (a stale folder without a row there goes first). */
    place() {
      mkdirSync(dirname(final), { recursive: true });
      if (existsSync(final)) rmSync(final, { recursive: true, force: true });
      renameSync(scratch, final);
      placed = true;
    },
    async committed() {
      rmSync(scratch, { recursive: true, force: true });
      await journal.close();
    },
    async abandon() {
      if (placed) rmSync(final, { recursive: true, force: true });
      rmSync(scratch, { recursive: true, force: true });
      await journal.close();
    },
  };
}

/**
 * A deletion whose process died: if the repository's row is still there (the delete never committed)
 * its folders go back where they were; otherwise they go for good.
 */
export function mendDelete(j: DeleteJournal, repoExists: boolean): 'restored' | 'removed' {
  if (repoExists) {
    for (const [from, to] of j.moves) {
      if (existsSync(to) && !existsSync(from)) {
        mkdirSync(dirname(from), { recursive: true });
        renameSync(to, from);
      }
    }
  }
  rmSync(j.trash, { recursive: true, force: true });
  return repoExists ? 'restored' : 'removed';
}

/**
 * A creation whose process died: its scratch folder goes; so does the folder moved into place, unless
 * the row committed (`nameTaken`) or another creation of that name is under way (`placedByOther`).
 */
export function mendCreate(j: CreateJournal, nameTaken: boolean, placedByOther: boolean): 'removed' | 'kept' {
  rmSync(j.scratch, { recursive: true, force: true });
  if (nameTaken || placedByOther) return 'kept';
  rmSync(j.final, { recursive: true, force: true });
  return 'removed';
}
