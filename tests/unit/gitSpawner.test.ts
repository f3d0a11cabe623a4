// The helper process that starts git (src/git/spawner.ts): streams both ways with backpressure, exit
// codes and signals as a child process reports them, a failure to start as an error, and a kill that
// stops the program.
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnViaHelper, type GitChild } from '../../src/git/spawner.js';
import { git, GitError } from '../../src/git/core.js';

const run = (file: string, args: string[]) => spawnViaHelper({ file, args, cwd: process.cwd(), env: { ...process.env } });

function collect(child: GitChild): Promise<{ stdout: Buffer; stderr: string; code: number | null; signal: string | null }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code: number | null, signal: string | null) => resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString(), code, signal }));
  });
}

test('stdin reaches the program and its stdout comes back whole (8 MB each way)', async () => {
  const input = randomBytes(8 * 1024 * 1024);
  const child = run('cat', []);
  const done = collect(child);
  child.stdin.end(input);
  const r = await done;
  assert.is(r.code, 0);
  assert.ok(r.stdout.equals(input), `got ${r.stdout.length} bytes`);
});

test('exit codes and stderr as the program gave them; exit before close', async () => {
  const child = run('sh', ['-c', 'echo out; echo err >&2; exit 3']);
  const events: string[] = [];
  child.on('exit', () => events.push('exit'));
  child.on('close', () => events.push('close'));
  child.stdin.end();
  const r = await collect(child);
  assert.equal([r.code, r.stdout.toString(), r.stderr], [3, 'out\n', 'err\n']);
  assert.equal(events, ['exit', 'close']);
});

test('a program that cannot start is an error with its code', async () => {
  const child = run('/nonexistent/program', []);
  child.stdin.end();
  try {
    await collect(child);
    assert.unreachable('should fail');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'ENOENT');
  }
});

test('kill stops the program', async () => {
  const child = run('sh', ['-c', 'echo $$; exec sleep 30']);
  const pid = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  const closed = new Promise((resolve) => child.on('close', resolve));
  child.stdout.resume();
  child.stderr.resume();
  assert.ok(child.kill());
  await closed;
  const gone = async () => {
    for (let i = 0; i < 200; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return true;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    return false;
  };
  assert.ok(await gone(), `sleep (${pid}) still runs`);
});

test('git(): output, declared exit codes, and failures as GitError', async () => {
  const r = await git(process.cwd(), ['--version']);
  assert.match(r.stdout, /^git version /);
  const miss = await git(process.cwd(), ['config', '--file', '/dev/null', '--get', 'no.such'], { okCodes: [1] });
  assert.is(miss.exitCode, 1);
  try {
    await git(process.cwd(), ['no-such-command']);
    assert.unreachable('should fail');
  } catch (err) {
    assert.instance(err, GitError);
  }
  const stopped = git(process.cwd(), ['hash-object', '--stdin'], { stdin: 'x', signal: AbortSignal.abort() });
  try {
    await stopped;
    assert.unreachable('should be stopped');
  } catch (err) {
    assert.is((err as Error).name, 'AbortError');
  }
});

test.run();
