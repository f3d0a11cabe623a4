import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { collaborations, labels, repositories } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, assertFsck, existsSync, getRepo, git, messageOf, orgRepo, orgWorld, pathOf, repoFolder, siteAdmin, swaggerOf,
  userRepo, type Actor, type OrgWorld, type Repository,
} from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let admin: Actor;
let alice: Actor;
let outsider: Actor;
let collab: Record<'read' | 'write' | 'admin', Actor>;
let w: OrgWorld;

test.before(async () => {
  app = await startApp();
  admin = await siteAdmin(app);
  const [a, o, cr, cw, ca] = await Promise.all([actor(app), actor(app), actor(app), actor(app), actor(app)]);
  [alice, outsider] = [a, o];
  collab = { read: cr, write: cw, admin: ca };
  w = await orgWorld(app);
});
test.after(async () => {
  await app.close();
});

const del = (repo: Repository | { owner: string; repo: string }, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}', { params: { path: 'full_name' in repo ? pathOf(repo) : repo } });

async function rowCount(id: number) {
  return (await app.services.deps.db.select().from(repositories).where(eq(repositories.id, id))).length;
}

/** Deletes as `as` and checks that the row, the folders and the attached rows are gone. */
async function expectDeleted(repo: Repository, as: Actor, label: string) {
  const { owner, repo: name } = pathOf(repo);
  const dir = repoFolder(app, owner, name);
  assert.ok(existsSync(dir), `${label}: the folder exists before`);
  const r = await del(repo, as.auth);
  assert.is(r.response.status, 204, `${label}: ${JSON.stringify(r.error)}`);
  assertSpec('repoDelete', r);
  assert.is(await r.response.text(), '');
  assert.not.ok(existsSync(dir), `${label}: the folder is gone`);
  assert.is(await rowCount(repo.id), 0, `${label}: the row is gone`);
  assert.is((await getRepo(app, owner, name, admin.auth)).response.status, 404, `${label}: GET is 404`);
  const tmp = join(app.config.dataDir, 'tmp');
  if (existsSync(tmp)) assert.equal(readdirSync(tmp), [], `${label}: nothing left aside`);
}

test('204: the owner deletes; folder, wiki folder, row, collaborations and labels go; GET is 404', async () => {
  const repo = await userRepo(app, alice, { auto_init: true, issue_labels: 'Default' });
  await addCollaborator(app, repo, collab.write, 'write');
  const dir = repoFolder(app, alice.username, repo.name);
  const wiki = dir.replace(/\.git$/, '.wiki.git');
  execFileSync('git', ['init', '--bare', '--quiet', wiki]);
  await expectDeleted(repo, alice, 'owner');
  assert.not.ok(existsSync(wiki), 'the wiki folder is gone');
  const db = app.services.deps.db;
  assert.equal(await db.select().from(collaborations).where(eq(collaborations.repoId, repo.id)), []);
  assert.equal(await db.select().from(labels).where(eq(labels.repoId, repo.id)), []);
  assert.is((await getRepo(app, alice.username, repo.name, collab.write.auth)).response.status, 404, 'the former collaborator: 404');
});

test('204: a site admin deletes anyone\'s repository; an org owner deletes the organization\'s', async () => {
  await expectDeleted(await userRepo(app, alice, { private: true }), admin, 'site admin, user repository');
  await expectDeleted(await orgRepo(app, w.name, w.owner, { private: true }), w.owner, 'org owner');
  await expectDeleted(await orgRepo(app, w.name, w.creator), admin, 'site admin, org repository');
});

test('204: an archived repository can be deleted; the name can be used again for a new, fresh repository', async () => {
  const repo = await userRepo(app, alice, { auto_init: true });
  const archive = await app.client(alice.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(repo) }, body: { archived: true } });
  assert.is(archive.response.status, 200);
  await expectDeleted(repo, alice, 'archived');

  const again = await userRepo(app, alice, { name: repo.name });
  assert.is(again.empty, true, 'nothing of the old repository is left');
  assert.ok(again.id !== repo.id);
  const dir = repoFolder(app, alice.username, repo.name);
  assert.is(git(dir, ['for-each-ref']).trim(), '', 'no refs of the old repository');
  assertFsck(dir);
});

test('403: collaborators (even admin), team members (even admin), org members, creators, outsiders who can see it', async () => {
  const repo = await userRepo(app, alice);
  for (const mode of ['read', 'write', 'admin'] as const) await addCollaborator(app, repo, collab[mode], mode);
  const orgPublic = await orgRepo(app, w.name, w.creator);
  const cases: Array<[string, Repository, Actor]> = [
    ['read collaborator', repo, collab.read],
    ['write collaborator', repo, collab.write],
    ['admin collaborator', repo, collab.admin],
    ['outsider, public repository', repo, outsider],
    ['admin team member', orgPublic, w.teamAdmin],
    ['read team member', orgPublic, w.reader],
    ['member in no team', orgPublic, w.member],
    ['the creator (admin collaborator)', orgPublic, w.creator],
  ];
  for (const [label, target, as] of cases) {
    const r = await del(target, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('repoDelete', r);
    assert.equal(r.error, { message: 'user should be the owner of the repo', url: swaggerOf(app) }, label);
  }
  assert.ok(existsSync(repoFolder(app, alice.username, repo.name)));
  assert.is(await rowCount(repo.id), 1);
  assert.is(await rowCount(orgPublic.id), 1);
});

test('404: a private repository the caller cannot see, unknown repository or owner (empty body)', async () => {
  const priv = await userRepo(app, alice, { private: true });
  const orgPriv = await orgRepo(app, w.name, w.owner, { private: true });
  for (const [label, target, as] of [['outsider', priv, outsider], ['member in no team', orgPriv, w.member], ['creator team', orgPriv, w.creator]] as const) {
    const r = await del(target, as.auth);
    assert.is(r.response.status, 404, label);
    assertSpec('repoDelete', r);
    assert.is(await r.response.text(), '');
  }
  assert.ok(existsSync(repoFolder(app, alice.username, priv.name)));
  assert.is((await del({ owner: alice.username, repo: 'nope' }, admin.auth)).response.status, 404);
  assert.is((await del({ owner: 'nobody-x', repo: priv.name }, admin.auth)).response.status, 404);
  await expectDeleted(priv, alice, 'still deletable by its owner');
  assert.is((await del(priv, alice.auth)).response.status, 404, 'a second delete is 404');
});

test('401: anonymous callers; 403: a token without write:repository', async () => {
  const repo = await userRepo(app, alice);
  const anon = await del(repo);
  assert.is(anon.response.status, 401);
  assertSpec('repoDelete', anon);
  assert.equal(anon.error, { message: 'token is required', url: swaggerOf(app) });
  for (const scopes of [['read:repository'], ['write:user', 'write:organization']]) {
    const r = await del(repo, await app.token(alice, scopes));
    assert.is(r.response.status, 403, scopes.join());
    assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:repository]');
  }
  assert.is(await rowCount(repo.id), 1);
  const ok = await del(repo, await app.token(alice, ['write:repository']));
  assert.is(ok.response.status, 204);
});

test('names are matched case-insensitively', async () => {
  const repo = await userRepo(app, alice, { name: 'MixedCase' });
  const r = await del({ owner: alice.username.toUpperCase(), repo: 'mIXEDcASE' }, alice.auth);
  assert.is(r.response.status, 204);
  assert.not.ok(existsSync(repoFolder(app, alice.username, repo.name)));
  assert.is(await rowCount(repo.id), 0);
});

test.run();
