// kill -9 in the middle of a repository delete or create: a child process runs the real folder moves of
// git/folderMoves.ts and kills itself where the transaction would commit; what start-up runs
// (repos.reconcileFolders) then mends the data folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromRoot } from '../../src/paths.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, fresh, pathOf, repoFolder, userRepo, type Actor } from '../helpers/repos.js';

let app: TestApp;
let owner: Actor;

test.before(async () => {
  app = await startApp();
  owner = await actor(app);
});
test.after(async () => {
  await app.close();
});

/** Runs `body` (an async function body; `m` is git/folderMoves.ts) in a child that SIGKILLs itself afterwards. */
function dieAfter(body: string): void {
  const script = `const m = await import(${JSON.stringify(fromRoot('src', 'git', 'folderMoves.ts'))});\n${body}\nprocess.kill(process.pid, 'SIGKILL');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: fromRoot(), encoding: 'utf8' });
  assert.is(r.signal, 'SIGKILL', `the child died by SIGKILL: ${r.stderr}`);
}

const tmpEntries = () => readdirSync(join(app.config.dataDir, 'tmp')).filter((n) => /^(deleting|creating|scratch)-/.test(n));

test('killed after moving a repository\'s folders aside, before its rows went: start-up moves them back', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const folder = repoFolder(app, owner.username, repo.name);
  dieAfter(`m.moveAsideForDelete(${JSON.stringify(app.config.dataDir)}, ${repo.id}, [${JSON.stringify(folder)}]);`);
  assert.not.ok(existsSync(folder), 'the folder was moved aside');
  const broken = await app.client(owner.auth).GET('/repos/{owner}/{repo}/branches', { params: { path: pathOf(repo) } });
  assert.ok(broken.response.status !== 200, 'the repository is broken until start-up mends it');
  const mended = await app.services.repos.reconcileFolders();
  assert.equal(mended, { restored: 1, removed: 0 });
  assert.ok(existsSync(folder));
  const ok = await app.client(owner.auth).GET('/repos/{owner}/{repo}/branches', { params: { path: pathOf(repo) } });
  assert.is(ok.response.status, 200);
  assert.equal(ok.data!.map((b) => b.name), ['main']);
  assert.equal(tmpEntries(), []);
});

test('killed after its rows went (the delete committed): start-up removes the folders for good', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const folder = repoFolder(app, owner.username, repo.name);
  dieAfter(`m.moveAsideForDelete(${JSON.stringify(app.config.dataDir)}, ${repo.id}, [${JSON.stringify(folder)}]);`);
  const { repositories } = await import('../../src/db/schema/index.js');
  const { eq } = await import('drizzle-orm');
  await app.services.deps.db.delete(repositories).where(eq(repositories.id, repo.id));
  assert.equal(await app.services.repos.reconcileFolders(), { restored: 0, removed: 1 });
  assert.not.ok(existsSync(folder));
  assert.equal(tmpEntries(), []);
});

test('killed after moving a new repository into place, before its row committed: start-up removes the folder', async () => {
  const name = fresh('ghost');
  const ownerRow = (await app.services.users.byName(owner.username))!;
  const final = repoFolder(app, owner.username, name);
  dieAfter(`
    const scratch = m.scratchRepoPath(${JSON.stringify(app.config.dataDir)});
    const { mkdirSync } = await import('node:fs');
    mkdirSync(scratch, { recursive: true });
    const j = m.journalCreate(${JSON.stringify(app.config.dataDir)}, ${ownerRow.id}, ${JSON.stringify(name.toLowerCase())}, ${JSON.stringify(final)});
    j.place(scratch);
  `);
  assert.ok(existsSync(final), 'a folder without a row');
  // A half-built scratch repository of another dead process goes too.
  dieAfter(`const { mkdirSync } = await import('node:fs'); mkdirSync(m.scratchRepoPath(${JSON.stringify(app.config.dataDir)}), { recursive: true });`);
  assert.is(tmpEntries().length, 2);
  assert.equal(await app.services.repos.reconcileFolders(), { restored: 0, removed: 2 });
  assert.not.ok(existsSync(final));
  assert.equal(tmpEntries(), []);
  // The name is free and works.
  const made = await userRepo(app, owner, { name, auto_init: true });
  assert.is(made.name, name);
});

test('a live process\'s moves and a repository that committed are left alone', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const folder = repoFolder(app, owner.username, repo.name);
  const { moveAsideForDelete } = await import('../../src/git/folderMoves.js');
  const aside = moveAsideForDelete(app.config.dataDir, repo.id, [folder]);
  assert.equal(await app.services.repos.reconcileFolders(), { restored: 0, removed: 0 }, 'this process is alive');
  aside.undo();
  assert.ok(existsSync(folder));
  mkdirSync(join(app.config.dataDir, 'tmp'), { recursive: true });
  assert.equal(tmpEntries(), []);
});

test.run();
