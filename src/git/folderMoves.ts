// Moving repository folders around a database transaction so that a crash (kill -9) at any point leaves
// something start-up can mend. Every move writes a journal into `$DATA_DIR/tmp` first, named after the
// process holding it (`<host>_<pid>`):
//   - a deletion moves the folders into `tmp/deleting-<holder>-<uuid>/` with `journal.json` (the
//     repository id and where each folder came from); the rows go in the transaction; then the folder
//     goes. Killed before the commit: the row is still there, so start-up moves the folders back.
//   - a creation builds the repository in `tmp/scratch-<holder>-<uuid>.git`, writes
//     `tmp/creating-<holder>-<uuid>.json` (owner id, lower-case name, final path) before moving it into
//     place inside the transaction, and removes the journal after the commit. Killed in between: no row,
//     so start-up removes the folder.
// Start-up (`reconcileFolders`) only touches journals of processes of this host that are gone.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { processAlive } from '../db/lock.js';

const holder = () => `${hostname().replace(/[^A-Za-z0-9.]/g, '')}_${process.pid}`;
const tmpOf = (dataDir: string) => join(dataDir, 'tmp');

interface DeleteJournal {
  repoId: number;
  /** [original path, path inside the trash folder] */
  moves: Array<[string, string]>;
}

interface CreateJournal {
  ownerId: number;
  lowerName: string;
  final: string;
}

/** A scratch path for building a repository (removed by start-up when its process is gone). */
export function scratchRepoPath(dataDir: string): string {
  mkdirSync(tmpOf(dataDir), { recursive: true });
  return join(tmpOf(dataDir), `scratch-${holder()}-${randomUUID()}.git`);
}

/** Moves `folders` (those that exist) aside for the deletion of repository `repoId`; undo or finish it. */
export function moveAsideForDelete(dataDir: string, repoId: number, folders: string[]): { undo(): void; finish(): void } {
  const trash = join(tmpOf(dataDir), `deleting-${holder()}-${randomUUID()}`);
  mkdirSync(trash, { recursive: true });
  const moves: Array<[string, string]> = folders.filter((f) => existsSync(f)).map((f, i) => [f, join(trash, String(i))]);
  const journal: DeleteJournal = { repoId, moves };
  writeFileSync(join(trash, 'journal.json'), JSON.stringify(journal));
  const done: Array<[string, string]> = [];
  try {
    for (const m of moves) {
      renameSync(m[0], m[1]);
      done.push(m);
    }
  } catch (err) {
    for (const [from, to] of done.reverse()) renameSync(to, from);
    rmSync(trash, { recursive: true, force: true });
    throw err;
  }
  return {
    undo() {
      for (const [from, to] of moves) if (existsSync(to)) renameSync(to, from);
      rmSync(trash, { recursive: true, force: true });
    },
    finish() {
      rmSync(trash, { recursive: true, force: true });
    },
  };
}

/**
 * Journals the move of a built repository into `final` (call inside the transaction that inserts its
 * row, just before `place`); `committed` after the commit, `abandon` when the transaction failed.
 */
export function journalCreate(dataDir: string, ownerId: number, lowerName: string, final: string) {
  const path = join(tmpOf(dataDir), `creating-${holder()}-${randomUUID()}.json`);
  mkdirSync(tmpOf(dataDir), { recursive: true });
  const journal: CreateJournal = { ownerId, lowerName, final };
  writeFileSync(path, JSON.stringify(journal));
  let placed = false;
  return {
    /** Moves the scratch folder into place (a stale folder without a row there goes first). */
    place(scratch: string) {
      mkdirSync(dirname(final), { recursive: true });
      if (existsSync(final)) rmSync(final, { recursive: true, force: true });
      renameSync(scratch, final);
      placed = true;
    },
    committed() {
      rmSync(path, { force: true });
    },
    abandon() {
      if (placed) rmSync(final, { recursive: true, force: true });
      rmSync(path, { force: true });
    },
  };
}

/** `<prefix>-<host>_<pid>-...`: whether the process that wrote it is gone (only this host's are known). */
function holderGone(name: string): boolean {
  const m = /^[a-z]+-([A-Za-z0-9.]*)_(\d+)-/.exec(name);
  if (!m) return false;
  const [, host, pid] = m;
  if (host !== hostname().replace(/[^A-Za-z0-9.]/g, '')) return false;
  return Number(pid) === process.pid ? false : !processAlive(Number(pid));
}

export interface FolderChecks {
  /** Whether repository `id` still has its row. */
  repoExists(id: number): Promise<boolean>;
  /** Whether a repository row (owner id, lower-case name) exists. */
  nameTaken(ownerId: number, lowerName: string): Promise<boolean>;
}

/** Mends what dead processes of this host left in `$DATA_DIR/tmp`; answers what it did. */
export async function reconcileFolders(dataDir: string, checks: FolderChecks): Promise<{ restored: number; removed: number }> {
  const tmp = tmpOf(dataDir);
  if (!existsSync(tmp)) return { restored: 0, removed: 0 };
  let restored = 0;
  let removed = 0;
  for (const name of readdirSync(tmp)) {
    if (!holderGone(name)) continue;
    const path = join(tmp, name);
    if (name.startsWith('deleting-')) {
      let journal: DeleteJournal | undefined;
      try {
        journal = JSON.parse(readFileSync(join(path, 'journal.json'), 'utf8')) as DeleteJournal;
      } catch {
        journal = undefined; // killed before the journal was written: nothing was moved
      }
      if (journal && (await checks.repoExists(journal.repoId))) {
        // The deletion never committed: the folders go back where they were.
        for (const [from, to] of journal.moves) {
          if (existsSync(to) && !existsSync(from)) {
            mkdirSync(dirname(from), { recursive: true });
            renameSync(to, from);
          }
        }
        restored++;
      } else removed++;
      rmSync(path, { recursive: true, force: true });
    } else if (name.startsWith('creating-')) {
      try {
        const journal = JSON.parse(readFileSync(path, 'utf8')) as CreateJournal;
        if (!(await checks.nameTaken(journal.ownerId, journal.lowerName))) {
          rmSync(journal.final, { recursive: true, force: true });
          removed++;
        }
      } catch {
        // an unreadable journal: nothing to act on
      }
      rmSync(path, { force: true });
    } else if (name.startsWith('scratch-')) {
      rmSync(path, { recursive: true, force: true });
      removed++;
    }
  }
  return { restored, removed };
}
