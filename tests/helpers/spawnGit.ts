// Git (and other programs) for the tests' own use, started by the small helper process of
// src/git/spawner.ts rather than by the test process. A test process holds the app and, on PGlite, its
// database engine (700 MB and more): each program it starts itself costs it 10 ms of CPU (fork copies its
// page tables) with the event loop stopped, 100 ms on a loaded machine; the fixtures start hundreds.
import { spawnViaHelper } from '../../src/git/spawner.js';

export interface Ran {
  code: number;
  stdout: Buffer;
  stderr: Buffer;
}

/** Runs `file` with `args` in `cwd` with exactly `env`, giving it `input`; never rejects on a non-zero exit. */
export function runProgram(file: string, args: string[], opts: { cwd: string; env: Record<string, string | undefined>; input?: string | Buffer }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawnViaHelper({ file, args, cwd: opts.cwd, env: opts.env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code: number | null, signal: string | null) =>
      resolve({ code: code ?? (signal ? 128 : 1), stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
    child.stdin.on('error', () => {}); // the program may exit before reading its input
    child.stdin.end(opts.input ?? '');
  });
}
