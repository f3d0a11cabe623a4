import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import { teams } from '../../../src/db/schema/index.js';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, existsSync, fresh, getRepo, messageOf, orgRepo, orgWorld, permissionOf, repoFolder, rowOf, siteAdmin,
  userRepo, type Actor, type OrgWorld,
} from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { accept, assertMoved, collaboration, pending, pendingRow, teamsOf, transfer } from '../../helpers/transfers.js';

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
  const r = await accept(app, repo);
  assert.is(r.response.status, 401);
  assertSpec('acceptRepoTransfer', r);
  assert.ok(await pendingRow(app, repo.id));
});

test('404: nothing pending (whoever asks, the owner included); an invisible repository', async () => {
  const repo = await userRepo(app, alice);
  for (const who of [alice, bob, admin]) {
    const r = await accept(app, repo, who.auth);
    assert.is(r.response.status, 404, who.username);
    assertSpec('acceptRepoTransfer', r);
  }
  const hidden = await userRepo(app, alice, { private: true });
  await pending(app, hidden, { new_owner: bob.username }, alice.auth);
  const r = await accept(app, hidden, carol.auth);
  assert.is(r.response.status, 404, 'not the recipient and cannot see it');
  assert.is(await r.response.text(), '');
});

test('403: the doer, the site admin (no bypass), another user who can see it; a token without write:repository', async () => {
  const repo = await userRepo(app, alice);
  await pending(app, repo, { new_owner: bob.username }, alice.auth);
  for (const who of [alice, admin, carol]) {
    const r = await accept(app, repo, who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('acceptRepoTransfer', r);
    assert.match(messageOf(r.error), 'accept or reject');
  }
  const readOnly = await app.token(bob, ['read:repository']);
  assert.is((await accept(app, repo, readOnly)).response.status, 403);
  assert.ok(await pendingRow(app, repo.id), 'still pending');
});

test('202: the user recipient takes a private repository; folder moves, the read grant goes, clone works', async () => {
  const repo = await userRepo(app, alice, { private: true, auto_init: true });
  await addCollaborator(app, repo, carol, 'write');
  await pending(app, repo, { new_owner: bob.username }, alice.auth);
  assert.is(await collaboration(app, repo.id, bob.id), 'read');

  const r = await accept(app, repo, bob.auth);
  assert.is(r.response.status, 202);
  assertSpec('acceptRepoTransfer', r);
  assert.is(r.data!.full_name, `${bob.username}/${repo.name}`);
  assert.is(r.data!.owner!.login, bob.username);
  assert.equal(r.data!.permissions, { admin: true, push: true, pull: true });
  assert.is(r.data!.repo_transfer, null);
  await assertMoved(app, alice.username, bob.username, repo.name, bob.auth, 'README.md');
  assert.is(await pendingRow(app, repo.id), undefined);
  assert.is(await collaboration(app, repo.id, bob.id), undefined, 'the owner is no collaborator');
  assert.is(await collaboration(app, repo.id, carol.id), 'write', 'other collaborators stay');
  assert.is(await permissionOf(app, r.data!, bob), 'owner');
  assert.is((await getRepo(app, bob.username, repo.name, alice.auth)).response.status, 404, 'the old owner lost it');

  const twice = await accept(app, r.data!, bob.auth);
  assert.is(twice.response.status, 404, 'nothing pending any more');
});

test('202: an organization member who may create repositories accepts a private repository for the organization', async () => {
  const repo = await userRepo(app, alice, { private: true, auto_init: true });
  await pending(app, repo, { new_owner: w.name, team_ids: [w.teams.creators.id] }, alice.auth);
  assert.is((await getRepo(app, alice.username, repo.name, w.creator.auth)).response.status, 404, 'cannot browse it');

  for (const who of [w.reader, w.member, w.teamAdmin]) {
    const r = await accept(app, repo, who.auth);
    assert.is(r.response.status, 404, `${who.username} is not a recipient and cannot see it`);
  }
  const r = await accept(app, repo, w.creator.auth);
  assert.is(r.response.status, 202);
  assertSpec('acceptRepoTransfer', r);
  assert.is(r.data!.full_name, `${w.name}/${repo.name}`);
  assert.equal(r.data!.permissions, { admin: false, push: true, pull: true }, 'the caller reaches it through the given team');
  await assertMoved(app, alice.username, w.name, repo.name, w.owner.auth, 'README.md');
  assert.equal(await teamsOf(app, repo.id), [w.teams.creators.id]);
});

test('403: an organization member who may not create repositories, on a repository they can see', async () => {
  const repo = await userRepo(app, alice);
  await pending(app, repo, { new_owner: w.name }, alice.auth);
  for (const who of [w.reader, w.member, w.outsider, admin]) {
    const r = await accept(app, repo, who.auth);
    assert.is(r.response.status, 403, who.username);
  }
  const r = await accept(app, repo, w.owner.auth);
  assert.is(r.response.status, 202, 'an organization owner may');
  assert.equal(r.data!.permissions, { admin: true, push: true, pull: true });
});

test('202: an organization repository offered to another organization; the old teams lose access, deleted teams are skipped', async () => {
  const repo = await orgRepo(app, w.name, w.owner);
  const target = await app.services.orgs.create(await rowOf(app, carol), { username: fresh('org') });
  const gone = (await app.services.teams.create(target, { name: 'gone', permission: 'read', units: ['repo.code'] })).team;
  const kept = (await app.services.teams.create(target, { name: 'kept', permission: 'write', units: ['repo.code'] })).team;
  await pending(app, repo, { new_owner: target.name, team_ids: [gone.id, kept.id] }, w.owner.auth);
  // No team deletion operation yet: remove it underneath.
  await app.services.deps.db.delete(teams).where(eq(teams.id, gone.id));
  const r = await accept(app, repo, carol.auth);
  assert.is(r.response.status, 202);
  assert.equal(await teamsOf(app, repo.id), [kept.id]);
  assert.is(await permissionOf(app, r.data!, w.reader), 'read', 'public repository: anyone reads');
  assert.is(await permissionOf(app, r.data!, w.teamAdmin), 'read', 'the old admin team lost its grant');
});

test('422: the recipient meanwhile got a repository of that name; nothing moves', async () => {
  const repo = await userRepo(app, alice);
  await pending(app, repo, { new_owner: bob.username }, alice.auth);
  await userRepo(app, bob, { name: repo.name });
  const r = await accept(app, repo, bob.auth);
  assert.is(r.response.status, 422);
  assertSpec('acceptRepoTransfer', r);
  assert.match(messageOf(r.error), 'already exists');
  assert.ok(await pendingRow(app, repo.id), 'still pending');
  assert.ok(existsSync(repoFolder(app, alice.username, repo.name)));
  assert.is((await getRepo(app, alice.username, repo.name, alice.auth)).response.status, 200);
});

test('a transfer can be started again after acceptance (direct this time)', async () => {
  const repo = await userRepo(app, alice);
  await pending(app, repo, { new_owner: bob.username }, alice.auth);
  const moved = (await accept(app, repo, bob.auth)).data!;
  const back = await transfer(app, moved, { new_owner: alice.username }, admin.auth);
  assert.is(back.response.status, 202);
  await assertMoved(app, bob.username, alice.username, repo.name, alice.auth);
});

test.run();
