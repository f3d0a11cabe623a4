// pushedCommits: the commits a push brings (newest first, at most `max`) and how many there are in all,
// counted by git only when the log alone cannot tell (a push longer than `max`). One commit on its
// parent is described without git (treeDiff.ts): exactly as git log describes it, for every kind of change.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closeObjectReaders } from '../../src/git/catFile.js';
import { journalUpdates, pushedCommits } from '../../src/git/pushLog.js';
import { singlePushedCommit } from '../../src/git/treeDiff.js';

let dir: string;
const ids: string[] = [];
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.com' } }).toString().trim();

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'anvil-pushlog-'));
  git('init', '-q', '-b', 'main');
  for (let i = 1; i <= 25; i++) {
    git('commit', '-q', '--allow-empty', '-m', `c${i}`);
    ids.push(git('rev-parse', 'HEAD'));
  }
});
test.after(() => {
  closeObjectReaders();
  rmSync(dir, { recursive: true, force: true });
});

test('a push shorter than the limit: every commit, total from the log', async () => {
  const r = await pushedCommits(dir, ids[24]!, [ids[21]!], 20);
  assert.equal(r.commits.map((c) => c.message.trim()), ['c25', 'c24', 'c23']);
  assert.is(r.total, 3);
});

test('a push of exactly the limit, and longer: the newest `max`, total counted', async () => {
  assert.is((await pushedCommits(dir, ids[24]!, [ids[4]!], 20)).total, 20);
  const r = await pushedCommits(dir, ids[24]!, [], 20);
  assert.is(r.commits.length, 20);
  assert.is(r.commits[0]!.id, ids[24]);
  assert.is(r.total, 25);
});

test('nothing new, and max 0', async () => {
  assert.equal(await pushedCommits(dir, ids[3]!, [ids[10]!], 20), { commits: [], total: 0 });
  assert.equal(await pushedCommits(dir, ids[24]!, [ids[19]!], 0), { commits: [], total: 5 });
});

test('one commit on its parent: described without git, as git log describes it', async () => {
  const file = (path: string, content = `${path}\n`) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  const commit = (message: string, env: Record<string, string> = {}) => {
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['commit', '-q', '--allow-empty', '-F', '-'], {
      cwd: dir, input: message,
      env: { ...process.env, GIT_AUTHOR_NAME: 'Zoë', GIT_AUTHOR_EMAIL: 'z@example.com', GIT_COMMITTER_NAME: 'C', GIT_COMMITTER_EMAIL: 'c@example.com', ...env },
    });
    return git('rev-parse', 'HEAD');
  };
  const steps: Array<() => void> = [
    () => { file('a.txt'); file('a/b.txt'); file('a-b'); file('deep/er/x.txt'); file('é.md'); },
    () => { file('a.txt', 'changed\n'); rmSync(join(dir, 'a-b')); file('deep/er/y.txt'); },
    () => { chmodSync(join(dir, 'a.txt'), 0o755); symlinkSync('a.txt', join(dir, 'link')); },
    () => { rmSync(join(dir, 'deep'), { recursive: true }); file('deep'); }, // a folder becomes a file
    () => { rmSync(join(dir, 'deep')); file('deep/again.txt'); rmSync(join(dir, 'link')); file('link'); }, // and back; a link becomes a file
    () => {}, // nothing changed
  ];
  const messages = ['first\n\nwith a body\n', 'second', '  spaced  \n\n\n', 'fourth\n', 'fifth: ünïcode\n', 'empty\n'];
  const zones = ['+0000', '+0530', '-0800', '+0100', '-0030', '+1400'];
  for (const [i, step] of steps.entries()) {
    const parent = git('rev-parse', 'HEAD');
    step();
    const date = `${1_700_000_000 + i * 1000} ${zones[i]}`;
    const id = commit(messages[i]!, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    const mine = await singlePushedCommit(dir, id, [parent]);
    // The same range through git (two excluded tips: the shortcut does not apply).
    const logged = await pushedCommits(dir, id, [parent, parent], 20);
    assert.ok(mine, `step ${i}: described`);
    assert.equal(mine, logged.commits[0], `step ${i}`);
    assert.equal(await pushedCommits(dir, id, [parent], 20), { commits: [mine!], total: 1 });
  }
  // Not its parent, a merge, or a root commit: left to git.
  const head = git('rev-parse', 'HEAD');
  assert.is(await singlePushedCommit(dir, head, [ids[0]!]), undefined);
  assert.is(await singlePushedCommit(dir, ids[0]!, [ids[0]!]), undefined);
});

const z = '0'.repeat(40);
const a = 'c69c42e2dd85956b6c26da56d68f0c9ad6d925e1';
const b = 'a3fff1d0c5c4362773d6ad3732f64d6e5799d390';

test('journalUpdates: what git 2.39 journals for an atomic push (a packed branch deleted, one moved, one made, HEAD along)', () => {
  // As captured from receive-pack with anvil's reference-transaction hook.
  const text = [
    `prepared ${z} ${z} refs/heads/b2`,
    `prepared ${a} ${z} refs/heads/b2`,
    `prepared ${a} ${b} refs/heads/master`,
    `prepared ${z} ${b} refs/heads/b3`,
    `prepared ${a} ${b} HEAD`,
    `committed ${z} ${z} refs/heads/b2`,
    `committed ${a} ${z} refs/heads/b2`,
    `committed ${a} ${b} refs/heads/master`,
    `committed ${z} ${b} refs/heads/b3`,
    `committed ${a} ${b} HEAD`,
    `prepared ${z} ${a} refs/tags/v1`,
    `committed ${z} ${a} refs/tags/v1`,
    `prepared ${z} ${a} refs/pull/1/head`,
    `committed ${z} ${a} refs/pull/1/head`,
    '',
  ].join('\n');
  assert.equal(journalUpdates(text), {
    committed: [
      { ref: 'refs/heads/b2', before: a, after: z },
      { ref: 'refs/heads/b3', before: z, after: b },
      { ref: 'refs/heads/master', before: a, after: b },
      { ref: 'refs/tags/v1', before: z, after: a },
    ],
    unsure: [],
  });
});

test('journalUpdates: aborted updates are left out; prepared ones git never finished are unsure; torn lines ignored', () => {
  const text = [
    `prepared ${a} ${b} refs/heads/refused`,
    `aborted ${a} ${b} refs/heads/refused`,
    `prepared ${z} ${a} refs/heads/killed`,
    `committed ${a} ${b}`,
    `prepared ${a} ${b} refs/heads/x extra`,
  ].join('\n');
  assert.equal(journalUpdates(text), { committed: [], unsure: [{ ref: 'refs/heads/killed', before: z, after: a }] });
  assert.equal(journalUpdates(''), { committed: [], unsure: [] });
});

test.run();
