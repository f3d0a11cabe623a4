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
// (mendDelete, mendCreate), within seconds and on any host sharing the data folder. A process that only
// stalled past its lease may find its journal taken over: the transaction that makes its move final
// first holds the journal's row (`hold`, FOR UPDATE by its holder), so it either still owns it (and no one
// can claim it until the commit) or fails without changing anything. A folder left in `tmp/` that no
// journal names (its journal taken over and mended while its stalled owner was still writing into it, then
// that owner killed) is removed by `sweepOrphans` once it is older than two leases.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
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

/**
 * Where journals are kept: `open` answers once the journal is durable (and leased); `hold(tx)`, inside the
 * transaction that makes the move final, locks the journal's row if this holder still has it and throws
 * otherwise (its lease lapsed and another process took it over); `close` drops it.
 */
export interface JournalStore {
  open(journal: Journal): Promise<OpenJournal>;
}

export interface OpenJournal {
  hold(tx: unknown): Promise<void>;
  close(): Promise<void>;
}

/** Moves `folders` (those that exist) aside for the deletion of repository `repoId`; undo or finish it. */
export async function moveAsideForDelete(dataDir: string, repoId: number, folders: string[], store: JournalStore): Promise<{ hold(tx: unknown): Promise<void>; undo(): Promise<void>; finish(): Promise<void> }> {
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
    /** First in the transaction that deletes the rows: it fails, changing nothing, if the journal was taken over. */
    hold: (tx: unknown) => journal.hold(tx),
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
    /**
     * Inside the transaction that inserts the row: holds the journal (or throws, nothing moved) and moves
     * the scratch folder into place (a stale folder without a row there goes first).
     */
    async place(tx: unknown) {
      await journal.hold(tx);
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
  rmSync(wikiScratchOf(j.scratch), { recursive: true, force: true });
  if (nameTaken || placedByOther) return 'kept';
  rmSync(j.final, { recursive: true, force: true });
  return 'removed';
}

/** Where a creation builds the repository's wiki beside its scratch folder (a migration's wiki). */
export const wikiScratchOf = (scratch: string): string => `${scratch}.wiki`;

/** The journalled folders of `tmp/` (scratch and trash), with their age. */
export function journalledFolders(dataDir: string): Array<{ path: string; ageMs: number }> {
  const tmp = tmpOf(dataDir);
  if (!existsSync(tmp)) return [];
  const now = Date.now();
  return readdirSync(tmp)
    .filter((n) => /^(scratch|deleting)-/.test(n))
    .flatMap((n) => {
      const path = join(tmp, n);
      try {
        return [{ path, ageMs: now - statSync(path).mtimeMs }];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/**
 * Removes the folders of `candidates` that no journal names (`named`: every journal's scratch and trash
 * path). A journal is written before its folder is made, so a folder without one is either being made
 * right now (young) or was left by a process whose journal was taken over and mended: only those older
 * than `minAgeMs` go. A migration's wiki scratch (`<scratch>.wiki`) belongs to its scratch's journal.
 */
export function sweepOrphans(candidates: Array<{ path: string; ageMs: number }>, named: Set<string>, minAgeMs: number): string[] {
  const removed: string[] = [];
  for (const c of candidates) {
    const owner = c.path.endsWith('.wiki') ? c.path.slice(0, -'.wiki'.length) : c.path;
    if (named.has(owner) || c.ageMs < minAgeMs) continue;
    rmSync(c.path, { recursive: true, force: true });
    removed.push(c.path);
  }
  return removed;
}
