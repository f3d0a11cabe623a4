// PGlite is a single-process database: one process at a time may open a data folder. The lock file
// makes a second one (the CLI while the server runs) stop with a clear message instead of hanging
// or corrupting the data.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirBusy extends Error {}

/** Whether a process with this id runs on this host. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockDataDir(dataDir: string, role: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'anvil.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify({ pid: process.pid, role, since: new Date().toISOString() }), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder: { pid?: number; role?: string } = {};
      try {
        holder = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        // A half-written lock of a process that died while writing it: stale.
      }
      if (holder.pid && holder.pid !== process.pid && processAlive(holder.pid)) {
        throw new DataDirBusy(
          `the data folder ${dataDir} is in use by ${holder.role ?? 'another anvil process'} (pid ${holder.pid}); ` +
            'stop it first, or use the HTTP API while it runs',
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirBusy(`could not lock the data folder ${dataDir}`);
}
