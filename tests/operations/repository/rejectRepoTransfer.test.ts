import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, existsSync, getRepo, messageOf, orgWorld, repoFolder, siteAdmin, userRepo, type Actor, type OrgWorld,
} from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { accept, collaboration, pending, pendingRow, reject, transfer } from '../../helpers/transfers.js';

let app: TestApp;
let alice: Actor;
let bob: Actor;
let carol: Actor;
let admin: Actor;
let w: OrgWorld;
test.before(async () => {
  app = await startApp();
  w = await orgWorld(app);
  [alice, bob, carol] = await Promise.all([actor(app), actor(app), actor(app)]);
  admin = await siteAdmin(app);
});
test.after(async () => {
  await app.close();
});

test('401: anonymous', async () => {
  const repo = await userRepo(app, alice);
  await pending(app, repo, { new_owner: bob.username }, alice.auth);
  const r = await reject(app, repo);
  assert.is(r.response.status, 401);
  assertSpec('rejectRepoTransfer', r);
  assert.ok(await pendingRow(app, repo.id));
});

test('404: nothing pending; an invisible repository', async () => {
  const repo = await userRepo(app, alice);
  for (const who of [alice, bob, admin]) {
    const r = await reject(app, repo, who.auth);
    assert.is(r.response.status, 404, who.username);
    assertSpec('rejectRepoTransfer', r);
  }
  const hidden = await userRepo(app, alice, { private: true });
  await pending(app, hidden, { new_owner: bob.username }, alice.auth);
  assert.is((await reject(app, hidden, carol.auth)).response.status, 404);
});

test('403: the doer, the site admin (no bypass), another user; a token without write:repository', async () => {
  const repo = await userRepo(app, alice);
  await pending(app, repo, { new_owner: bob.username }, alice.auth);
  for (const who of [alice, admin, carol]) {
    const r = await reject(app, repo, who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('rejectRepoTransfer', r);
    assert.match(messageOf(r.error), 'accept or reject');
  }
  assert.is((await reject(app, repo, await app.token(bob, ['read:repository']))).response.status, 403);
  assert.ok(await pendingRow(app, repo.id), 'still pending');
});

test('200: the recipient rejects; the repository stays, the read grant goes, the transfer can start again', async () => {
  const repo = await userRepo(app, alice, { private: true });
  await pending(app, repo, { new_owner: bob.username }, alice.auth);
  assert.is(await collaboration(app, repo.id, bob.id), 'read');

  const r = await reject(app, repo, bob.auth);
  assert.is(r.response.status, 200);
  assertSpec('rejectRepoTransfer', r);
  assert.is(r.data!.full_name, `${alice.username}/${repo.name}`);
  assert.is(r.data!.repo_transfer, null);
  assert.equal(r.data!.permissions, { admin: false, push: false, pull: false }, 'the read grant is gone');
  assert.is(await pendingRow(app, repo.id), undefined);
  assert.is(await collaboration(app, repo.id, bob.id), undefined);
  assert.is((await getRepo(app, alice.username, repo.name, bob.auth)).response.status, 404);
  const mine = await getRepo(app, alice.username, repo.name, alice.auth);
  assert.is(mine.data!.repo_transfer, null);
  assert.ok(existsSync(repoFolder(app, alice.username, repo.name)));

  assert.is((await accept(app, repo, bob.auth)).response.status, 404, 'nothing left to accept');
  assert.is((await transfer(app, repo, { new_owner: bob.username }, alice.auth)).response.status, 201, 'a new offer is possible');
});

test('200: a collaborator the recipient already was stays after a rejection', async () => {
  const repo = await userRepo(app, alice, { private: true });
  await addCollaborator(app, repo, carol, 'write');
  await pending(app, repo, { new_owner: carol.username }, alice.auth);
  assert.is((await pendingRow(app, repo.id))!.grantedRead, false);
  const r = await reject(app, repo, carol.auth);
  assert.is(r.response.status, 200);
  assert.equal(r.data!.permissions, { admin: false, push: true, pull: true });
  assert.is(await collaboration(app, repo.id, carol.id), 'write');
});

test('200: for an organization, a member who may create repositories rejects; others 403', async () => {
  const repo = await userRepo(app, alice);
  await pending(app, repo, { new_owner: w.name, team_ids: [w.teams.readers.id] }, alice.auth);
  for (const who of [w.reader, w.member, w.teamAdmin]) {
    assert.is((await reject(app, repo, who.auth)).response.status, 403, who.username);
  }
  const r = await reject(app, repo, w.creator.auth);
  assert.is(r.response.status, 200);
  assertSpec('rejectRepoTransfer', r);
  assert.is(r.data!.full_name, `${alice.username}/${repo.name}`);
  assert.is(await pendingRow(app, repo.id), undefined);
});

test.run();
