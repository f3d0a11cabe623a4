// pushedCommits: the commits a push brings (newest first, at most `max`) and how many there are in all,
// counted by git only when the log alone cannot tell (a push longer than `max`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pushedCommits } from '../../src/git/pushLog.js';

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
test.after(() => rmSync(dir, { recursive: true, force: true }));

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

test.run();
