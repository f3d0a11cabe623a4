// kill -9 in the middle of a repository delete or create: a child process runs the real folder moves of
// git/folderMoves.ts (its journal store writes the journal to a file, which the test then inserts as the
// leased row a dead process leaves: lease lapsed) and kills itself where the transaction would commit; a
// live process's recovery (repos.recoverFolders, run every few seconds by the leftovers worker) mends
// the data folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { folderJournals, repositories } from '../../src/db/schema/index.js';
import { LeftoversWorker } from '../../src/jobs/leftovers.js';
import { fromRoot } from '../../src/paths.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { eventually } from '../helpers/hooks.js';
import { actor, fresh, pathOf, repoFolder, userRepo, type Actor } from '../helpers/repos.js';

let app: TestApp;
let owner: Actor;

test.before(async () => {
  app = await startApp({ LEFTOVERS_POLL_INTERVAL_MS: '50' });
  owner = await actor(app);
});
test.after(async () => {
  await app.close();
});

/**
 * Runs `body` (an async function body; `m` is git/folderMoves.ts, `store` a journal store) in a child that
 * SIGKILLs itself afterwards; then leaves the journal it wrote as the row of a dead process.
 */
async function dieAfter(body: string): Promise<void> {
  const out = join(app.config.dataDir, `journal-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const script = `const m = await import(${JSON.stringify(fromRoot('src', 'git', 'folderMoves.ts'))});
const { writeFileSync } = await import('node:fs');
const store = { open: async (j) => { writeFileSync(${JSON.stringify(out)}, JSON.stringify(j)); return { hold: async () => {}, close: async () => {} }; } };
${body}
process.kill(process.pid, 'SIGKILL');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: fromRoot(), encoding: 'utf8' });
  assert.is(r.signal, 'SIGKILL', `the child died by SIGKILL: ${r.stderr}`);
  const journal = JSON.parse(readFileSync(out, 'utf8')) as { kind: string; data: Record<string, unknown> };
  rmSync(out);
  await app.services.deps.db.insert(folderJournals).values({ kind: journal.kind, data: journal.data, holder: 'gone-host:1:dead', leaseUntil: new Date(Date.now() - 1000) });
}

const tmpEntries = () => readdirSync(join(app.config.dataDir, 'tmp')).filter((n) => /^(deleting|creating|scratch)-/.test(n));
const journalRows = () => app.services.deps.db.select().from(folderJournals);

test('killed after moving a repository\'s folders aside, before its rows went: its folders go back', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const folder = repoFolder(app, owner.username, repo.name);
  await dieAfter(`await m.moveAsideForDelete(${JSON.stringify(app.config.dataDir)}, ${repo.id}, [${JSON.stringify(folder)}], store);`);
  assert.not.ok(existsSync(folder), 'the folder was moved aside');
  const broken = await app.client(owner.auth).GET('/repos/{owner}/{repo}/branches', { params: { path: pathOf(repo) } });
  assert.ok(broken.response.status !== 200, 'the repository is broken until a live process mends it');
  assert.equal(await app.services.repos.recoverFolders(), { taken: 1, restored: 1, removed: 0 });
  assert.ok(existsSync(folder));
  const ok = await app.client(owner.auth).GET('/repos/{owner}/{repo}/branches', { params: { path: pathOf(repo) } });
  assert.is(ok.response.status, 200);
  assert.equal(ok.data!.map((b) => b.name), ['main']);
  assert.equal(tmpEntries(), []);
  assert.equal(await journalRows(), []);
  assert.equal(await app.services.repos.recoverFolders(), { taken: 0, restored: 0, removed: 0 }, 'once');
});

test('killed after its rows went (the delete committed): the folders go for good', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const folder = repoFolder(app, owner.username, repo.name);
  await dieAfter(`await m.moveAsideForDelete(${JSON.stringify(app.config.dataDir)}, ${repo.id}, [${JSON.stringify(folder)}], store);`);
  await app.services.deps.db.delete(repositories).where(eq(repositories.id, repo.id));
  assert.equal(await app.services.repos.recoverFolders(), { taken: 1, restored: 0, removed: 1 });
  assert.not.ok(existsSync(folder));
  assert.equal(tmpEntries(), []);
  assert.equal(await journalRows(), []);
});

test('killed after moving a new repository into place, before its row committed: the folder goes', async () => {
  const name = fresh('ghost');
  const ownerRow = (await app.services.users.byName(owner.username))!;
  const final = repoFolder(app, owner.username, name);
  await dieAfter(`
    const j = await m.beginCreate(${JSON.stringify(app.config.dataDir)}, ${ownerRow.id}, ${JSON.stringify(name.toLowerCase())}, ${JSON.stringify(final)}, store);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(j.scratch, { recursive: true });
    await j.place(undefined);
  `);
  assert.ok(existsSync(final), 'a folder without a row');
  // A half-built scratch repository of another dead process goes too (its final folder was never made).
  const other = fresh('half');
  await dieAfter(`
    const j = await m.beginCreate(${JSON.stringify(app.config.dataDir)}, ${ownerRow.id}, ${JSON.stringify(other.toLowerCase())}, ${JSON.stringify(repoFolder(app, owner.username, other))}, store);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(j.scratch, { recursive: true });
  `);
  assert.is(tmpEntries().length, 1, 'the scratch folder');
  assert.equal(await app.services.repos.recoverFolders(), { taken: 2, restored: 0, removed: 2 });
  assert.not.ok(existsSync(final));
  assert.equal(tmpEntries(), []);
  assert.equal(await journalRows(), []);
  // The name is free and works.
  const made = await userRepo(app, owner, { name, auto_init: true });
  assert.is(made.name, name);
});

test('a live process\'s moves (lease renewed) and a repository that committed are left alone', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const folder = repoFolder(app, owner.username, repo.name);
  const { moveAsideForDelete } = await import('../../src/git/folderMoves.js');
  const aside = await moveAsideForDelete(app.config.dataDir, repo.id, [folder], app.services.repos.journals);
  assert.equal(await app.services.repos.recoverFolders(), { taken: 0, restored: 0, removed: 0 }, 'its lease holds');
  await aside.undo();
  assert.ok(existsSync(folder));
  mkdirSync(join(app.config.dataDir, 'tmp'), { recursive: true });
  assert.equal(tmpEntries(), []);
  assert.equal(await journalRows(), []);
});

test('the leftovers worker mends a dead process\'s move by itself, within seconds', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const folder = repoFolder(app, owner.username, repo.name);
  await dieAfter(`await m.moveAsideForDelete(${JSON.stringify(app.config.dataDir)}, ${repo.id}, [${JSON.stringify(folder)}], store);`);
  const worker = new LeftoversWorker(app.services.deps, app.services.gitTransport, app.services.repos, app.services.migrations);
  worker.start();
  try {
    await eventually(() => existsSync(folder), 'the folder back in place', 10_000);
    await eventually(async () => (await journalRows()).length === 0, 'the journal gone', 10_000);
  } finally {
    await worker.stop();
  }
});

test('a process that stalled past its lease: its journal taken over, its transaction fails changing nothing', async () => {
  const { beginCreate, moveAsideForDelete } = await import('../../src/git/folderMoves.js');
  const { withTx } = await import('../../src/db/tx.js');
  const { LeaseLost } = await import('../../src/services/leases.js');
  const { db } = app.services.deps;
  const lapse = () => db.update(folderJournals).set({ leaseUntil: new Date(Date.now() - 1000) });
  // A creation: its scratch folder built, then the lease lapses and a live process mends the journal.
  const ownerRow = (await app.services.users.byName(owner.username))!;
  const name = fresh('stalled');
  const final = repoFolder(app, owner.username, name);
  const made = await beginCreate(app.config.dataDir, ownerRow.id, name.toLowerCase(), final, app.services.repos.journals);
  mkdirSync(made.scratch, { recursive: true });
  await lapse();
  assert.equal(await app.services.repos.recoverFolders(), { taken: 1, restored: 0, removed: 1 });
  let err: unknown;
  await withTx(db, async (tx) => {
    await tx.insert(repositories).values({ ownerId: ownerRow.id, name, lowerName: name.toLowerCase() });
    await made.place(tx);
  }).catch((e: unknown) => (err = e));
  assert.instance(err, LeaseLost, 'the transaction that would place the folder fails');
  await made.abandon();
  assert.equal(await db.select().from(repositories).where(eq(repositories.lowerName, name.toLowerCase())), [], 'no row');
  assert.not.ok(existsSync(final), 'no folder');
  // A deletion: the rows stay, the folders are back where they were.
  const repo = await userRepo(app, owner, { auto_init: true });
  const folder = repoFolder(app, owner.username, repo.name);
  const aside = await moveAsideForDelete(app.config.dataDir, repo.id, [folder], app.services.repos.journals);
  await lapse();
  assert.equal(await app.services.repos.recoverFolders(), { taken: 1, restored: 1, removed: 0 });
  err = undefined;
  await withTx(db, async (tx) => {
    await aside.hold(tx);
    await tx.delete(repositories).where(eq(repositories.id, repo.id));
  }).catch((e: unknown) => (err = e));
  assert.instance(err, LeaseLost);
  await aside.undo();
  assert.ok(existsSync(folder));
  assert.is((await db.select().from(repositories).where(eq(repositories.id, repo.id))).length, 1);
  assert.equal(await journalRows(), []);
});

test('scratch and trash folders no journal names go once older than two leases; young or journalled ones stay', async () => {
  const { journalledFolders, sweepOrphans } = await import('../../src/git/folderMoves.js');
  const tmp = join(app.config.dataDir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const orphan = join(tmp, 'scratch-orphan.git');
  const orphanWiki = `${orphan}.wiki`;
  const named = join(tmp, 'scratch-named.git');
  const namedWiki = `${named}.wiki`;
  const trash = join(tmp, 'deleting-orphan');
  for (const d of [orphan, orphanWiki, named, namedWiki, trash]) mkdirSync(d, { recursive: true });
  const all = journalledFolders(app.config.dataDir);
  assert.equal(sweepOrphans(all, new Set([named]), 60_000), [], 'young folders stay');
  const aged = all.map((f) => ({ ...f, ageMs: 61_000 }));
  assert.equal(sweepOrphans(aged, new Set([named]), 60_000).sort(), [orphan, orphanWiki, trash].sort());
  assert.ok(existsSync(named) && existsSync(namedWiki), 'a journalled scratch folder and its wiki stay');
  rmSync(named, { recursive: true });
  rmSync(namedWiki, { recursive: true });
});

test.run();
