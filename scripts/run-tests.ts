// `make test`: prepares one migrated database template, runs every tests/**/*.test.ts file (each in its
// own process, or the small ones in batches that share one; two processes at a time, one per core), and prints `N passed, M failed` — uvu prints no total our CI
// can read. Exits non-zero on any failure, a crashed file, a hung one (killed after TEST_FILE_TIMEOUT
// seconds, never run again), or when no test ran.
// With DATABASE_URL set the suite runs on that PostgreSQL server (the database it names is created,
// used as the template, and dropped); otherwise on PGlite.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { dropPostgresDatabases, preparePostgresTemplate, writePgliteTemplate } from '../tests/helpers/template.js';

const filter = process.argv.slice(2);

function findTests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return findTests(p);
    return name.endsWith('.test.ts') ? [p] : [];
  });
}

const files = findTests('tests')
  .filter((f) => filter.length === 0 || filter.some((s) => f.includes(s)))
  .sort();

const env: Record<string, string> = { ...(process.env as Record<string, string>), NO_COLOR: '1', FORCE_COLOR: '0' };
const tmp = mkdtempSync(join(tmpdir(), 'anvil-run-'));
const pgUrl = process.env.DATABASE_URL;
const started = Date.now();
if (pgUrl) {
  await dropPostgresDatabases(pgUrl);
  await preparePostgresTemplate(pgUrl);
  env.ANVIL_TEST_PG_URL = pgUrl;
} else {
  env.ANVIL_TEST_PGLITE_IMAGE = join(tmp, 'template.tar');
  await writePgliteTemplate(env.ANVIL_TEST_PGLITE_IMAGE);
}
delete env.DATABASE_URL;

// The test files are bundled once (esbuild, shared chunks) and run as plain JavaScript: loading the app's
// few hundred modules through tsx's loader hooks cost each test process about 4 s of CPU, now a fraction
// of that. The bundle lives under the project (.test-build/, removed at the end) so that its imports of
// libraries resolve to node_modules and src/paths.ts finds the project root. TEST_BUNDLE=0 runs the
// TypeScript files through tsx instead.
const bundled = process.env.TEST_BUNDLE !== '0';
const buildDir = join('.test-build', String(process.pid));
if (bundled) {
  await build({
    entryPoints: [...files, 'scripts/test-batch.ts'],
    outdir: buildDir,
    outbase: '.',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}
const runnable = (f: string) => (bundled ? join(buildDir, f.replace(/\.ts$/, '.js')) : f);
// TEST_NODE_ARGS adds options to every test process's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`,
// which NODE_OPTIONS does not allow, to see where a file's CPU goes).
const nodeArgs = [...(bundled ? ['--enable-source-maps'] : ['--import', 'tsx']), ...(process.env.TEST_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];

interface Result {
  /** Killed after FILE_TIMEOUT: it hung (its output so far is kept); always a failure. */
  hung?: boolean;
  file: string;
  passed: number;
  failed: number;
  skipped: number;
  output: string;
  code: number | null;
  ms: number;
  /** CPU seconds (user + system) of the file's process and the processes it waited for (git, servers), when /usr/bin/time is there. */
  cpu?: number;
}

/** A file (or batch) still running after this long has hung: it is killed (TEST_FILE_TIMEOUT seconds). */
const fileTimeoutMs = (Number(process.env.TEST_FILE_TIMEOUT) || 600) * 1000;

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
let jobCounter = 0;
/** The running files' process groups: an interrupted run (Ctrl-C) ends them too, as a terminal would have. */
const running = new Set<number>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const pid of running) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (bundled) rmSync(buildDir, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  });
}

/** One file, or a batch of small ones run in one process (scripts/test-batch.ts). */
function runFile(job: string[]): Promise<Result> {
  const t0 = Date.now();
  const file = job.length === 1 ? job[0]! : `${job[0]} … ${job[job.length - 1]} (${job.length} files)`;
  const args = job.length === 1 ? [runnable(job[0]!)] : [runnable('scripts/test-batch.ts'), ...job.map(runnable)];
  return new Promise((resolve) => {
    // Each file runs in a process group of its own (so that a hung file is killed with every process it
    // started), under /usr/bin/time where it exists, which reports the CPU the file cost: the figure to
    // watch when the suite grows (wall time depends on what else the machine is doing).
    const cpuFile = timeBin ? join(tmp, `cpu-${++jobCounter}`) : undefined;
    const command = timeBin ? [timeBin, '-q', '-f', '%U %S', '-o', cpuFile!, process.execPath] : [process.execPath];
    const child = spawn(command[0]!, [...command.slice(1), ...nodeArgs, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid) running.add(child.pid);
    let output = '';
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, fileTimeoutMs);
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (child.pid) running.delete(child.pid);
      const num = (label: string) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(output)?.[1] ?? 0);
      const total = num('Total');
      const passed = num('Passed');
      const skipped = num('Skipped');
      let failed = Math.max(0, total - passed - skipped);
      // A file that crashed or exited non-zero without a failing test still counts as a failure.
      if (code !== 0 && failed === 0) failed = 1;
      let cpu: number | undefined;
      if (cpuFile && existsSync(cpuFile)) {
        const m = /(\d+\.\d+) (\d+\.\d+)\s*$/.exec(readFileSync(cpuFile, 'utf8'));
        if (m) cpu = Number(m[1]) + Number(m[2]);
      }
      resolve({ file, passed, failed, skipped, output, code, ms: Date.now() - t0, hung, cpu });
    });
  });
}

// One process per core (TEST_JOBS overrides). A third on 2 cores was tried (2026-12-07): the cores were
// then busy all the time, and each process slower by as much, so the suite took as long.
const concurrency = Math.max(1, Math.min(Number(process.env.TEST_JOBS) || cpus().length, 4));
// Each process pays seconds to load the app: the small files of the operation and unit folders run in
// batches of TEST_BATCH (40) per process: a process costs about 6 CPU s before its first test (loading the
// bundle, opening PGlite, compiling the validators of the operations it calls), so 30 issue-operation
// files took 38–42 CPU s in batches of 10 and 24–31 in one batch of 30 (2026-12-08). Files that measure
// their own process (memory), spawn or kill processes, or shard the contract run alone, and first (the
// longest ones start early).
const batchSize = Math.max(1, Number(process.env.TEST_BATCH) || 40);
const batchable = (f: string) => /^tests\/(operations|unit)\//.test(f.replaceAll('\\', '/'));
const queue: string[][] = files.filter((f) => !batchable(f)).map((f) => [f]);
const small = files.filter(batchable);
for (let i = 0; i < small.length; i += batchSize) queue.push(small.slice(i, i + batchSize));
const results: Result[] = [];
let hangs = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const r = await runFile(job);
      if (r.hung) {
        // A hang is a failure: the file is never run again (a second run with another seed or luck could
        // pass and hide what hung). What it printed before it was killed (the contract test prints its
        // seed first and a failure as soon as it is found) is shown below, as for any failure.
        process.stdout.write(`HUNG ${relative('.', r.file)} after ${(r.ms / 1000).toFixed(0)}s: killed, counted as failed\n`);
        r.failed = Math.max(1, r.failed);
        hangs++;
      }
      results.push(r);
      const mark = r.failed ? 'FAIL' : 'ok  ';
      process.stdout.write(`${mark} ${relative('.', r.file)}  (${r.passed} passed, ${r.failed} failed, ${(r.ms / 1000).toFixed(1)}s${r.cpu === undefined ? '' : `, cpu ${r.cpu.toFixed(1)}s`})\n`);
      // TEST_OUTPUT=1 shows what every file printed, not only the failing ones.
      if (r.failed || process.env.TEST_OUTPUT === '1') process.stdout.write(r.output.replace(/^/gm, '    | ') + '\n');
    }
  }),
);

if (pgUrl) await dropPostgresDatabases(pgUrl);
rmSync(tmp, { recursive: true, force: true });
if (bundled) rmSync(buildDir, { recursive: true, force: true });

const passed = results.reduce((s, r) => s + r.passed, 0);
const failed = results.reduce((s, r) => s + r.failed, 0);
const skipped = results.reduce((s, r) => s + r.skipped, 0);
const cpuTotal = results.reduce((s, r) => s + (r.cpu ?? 0), 0);
process.stdout.write(`\n${files.length} files on ${pgUrl ? 'PostgreSQL' : 'PGlite'} in ${((Date.now() - started) / 1000).toFixed(1)}s${timeBin ? ` (test processes used ${cpuTotal.toFixed(0)} CPU seconds)` : ''}\n`);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${hangs ? ` (${hangs} hung file(s), each counted as failed)` : ''}\n`);
if (failed > 0 || passed === 0) process.exit(1);
