import { mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { teamRepos } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, existsSync, fresh, getRepo, git, messageOf, orgRepo, orgWorld, permissionOf, raw, repoFolder,
  siteAdmin, swaggerOf, userRepo, type Actor, type OrgWorld,
} from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertMoved, collaboration, pendingRow, teamsOf, transfer } from '../../helpers/transfers.js';

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
  const r = await transfer(app, repo, { new_owner: bob.username });
  assert.is(r.response.status, 401);
  assertSpec('repoTransfer', r);
  assert.is(messageOf(r.error), 'token is required');
});

test('403: readers, writers and admin collaborators of a user repository; a token without write:repository', async () => {
  const repo = await userRepo(app, alice);
  const [reader, writer, repoAdmin] = await Promise.all([actor(app), actor(app), actor(app)]);
  await addCollaborator(app, repo, reader, 'read');
  await addCollaborator(app, repo, writer, 'write');
  await addCollaborator(app, repo, repoAdmin, 'admin');
  for (const who of [reader, writer, repoAdmin]) {
    const r = await transfer(app, repo, { new_owner: who.username }, who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('repoTransfer', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
  const readOnly = await app.token(alice, ['read:repository']);
  const r = await transfer(app, repo, { new_owner: bob.username }, readOnly);
  assert.is(r.response.status, 403);
  assert.match(messageOf(r.error), 'write:repository');
  assert.is((await getRepo(app, alice.username, repo.name, alice.auth)).response.status, 200, 'nothing moved');
  assert.is(await pendingRow(app, repo.id), undefined);
});

test('403: organization members below owner (reader team, admin team, repository creators)', async () => {
  const repo = await orgRepo(app, w.name, w.owner);
  for (const who of [w.reader, w.teamAdmin, w.creator]) {
    const r = await transfer(app, repo, { new_owner: who.username }, who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('repoTransfer', r);
  }
});

test('404: the repository is invisible to the caller', async () => {
  const repo = await userRepo(app, alice, { private: true });
  const r = await transfer(app, repo, { new_owner: bob.username }, bob.auth);
  assert.is(r.response.status, 404);
  assert.is(await r.response.text(), '');
});

test('404: unknown new owner, and a private organization the caller is not a member of', async () => {
  const repo = await userRepo(app, alice);
  const unknown = await transfer(app, repo, { new_owner: fresh('nobody') }, alice.auth);
  assert.is(unknown.response.status, 404);
  assertSpec('repoTransfer', unknown);
  const hidden = await orgWorld(app, 'private', w);
  const r = await transfer(app, repo, { new_owner: hidden.name }, alice.auth);
  assert.is(r.response.status, 404);
  assert.is(await r.response.text(), '');
  const privateUser = await actor(app, { visibility: 'private' });
  assert.is((await transfer(app, repo, { new_owner: privateUser.username }, alice.auth)).response.status, 404);
  assert.is(await pendingRow(app, repo.id), undefined);
});

test('422: team_ids to a user (even an empty list), an unknown team, a missing new_owner', async () => {
  const repo = await userRepo(app, alice);
  for (const team_ids of [[w.teams.readers.id], []]) {
    const r = await transfer(app, repo, { new_owner: bob.username, team_ids }, alice.auth);
    assert.is(r.response.status, 422, JSON.stringify(team_ids));
    assertSpec('repoTransfer', r);
    assert.is(messageOf(r.error), 'repos can only be transferred to teams for organizations');
  }
  const missing = 987654321;
  const r = await transfer(app, repo, { new_owner: w.name, team_ids: [w.teams.creators.id, missing] }, alice.auth);
  assert.is(r.response.status, 422);
  assertSpec('repoTransfer', r);
  assert.is(messageOf(r.error), `team ${missing} not found`);
  const noOwner = await raw(app, 'POST', `/repos/${alice.username}/${repo.name}/transfer`, { body: '{}', authorization: alice.auth });
  assert.is(noOwner.response.status, 422);
  assert.match(noOwner.body.message, 'new_owner');
  assert.is(await pendingRow(app, repo.id), undefined);
});

test('403: a team of another organization', async () => {
  const other = await orgWorld(app, 'public', w);
  const repo = await userRepo(app, alice);
  const r = await transfer(app, repo, { new_owner: w.name, team_ids: [other.teams.creators.id] }, alice.auth);
  assert.is(r.response.status, 403);
  assertSpec('repoTransfer', r);
  assert.match(messageOf(r.error), `team ${other.teams.creators.id}`);
});

test('422: the new owner has a repository of that name (or its folder is on disk); the current owner itself', async () => {
  const name = fresh('Dup');
  const repo = await userRepo(app, alice, { name });
  await userRepo(app, bob, { name: name.toLowerCase() });
  const r = await transfer(app, repo, { new_owner: bob.username }, admin.auth);
  assert.is(r.response.status, 422);
  assertSpec('repoTransfer', r);
  assert.match(messageOf(r.error), 'already exists');
  const self = await transfer(app, repo, { new_owner: alice.username }, alice.auth);
  assert.is(self.response.status, 422);
  // A folder without a row at the target keeps the name: nothing is overwritten.
  mkdirSync(repoFolder(app, carol.username, name), { recursive: true });
  const stale = await transfer(app, repo, { new_owner: carol.username }, admin.auth);
  assert.is(stale.response.status, 422);
  assert.ok(existsSync(repoFolder(app, alice.username, name)), 'the repository stayed');
  assert.is((await getRepo(app, alice.username, name, alice.auth)).data!.owner!.login, alice.username);
});

test('202: the site admin moves a user repository at once; folder, wiki and clone follow; collaborators recomputed', async () => {
  const repo = await userRepo(app, alice, { private: true, auto_init: true });
  await addCollaborator(app, repo, bob, 'write');
  await addCollaborator(app, repo, carol, 'read');
  const wiki = repoFolder(app, alice.username, repo.name).replace(/\.git$/, '.wiki.git');
  git(app.config.dataDir, ['init', '--bare', '--quiet', wiki]);

  const r = await transfer(app, repo, { new_owner: bob.username, team_ids: null }, admin.auth);
  assert.is(r.response.status, 202);
  assertSpec('repoTransfer', r);
  const moved = r.data!;
  assert.is(moved.id, repo.id);
  assert.is(moved.full_name, `${bob.username}/${repo.name}`);
  assert.is(moved.owner!.login, bob.username);
  assert.is(moved.clone_url, `${app.config.rootUrl}${bob.username}/${repo.name}.git`);
  assert.equal(moved.permissions, { admin: true, push: true, pull: true });
  assert.is(moved.repo_transfer, null);

  await assertMoved(app, alice.username, bob.username, repo.name, bob.auth, 'README.md');
  assert.not.ok(existsSync(wiki), 'old wiki gone');
  assert.ok(existsSync(repoFolder(app, bob.username, repo.name).replace(/\.git$/, '.wiki.git')), 'wiki moved');
  // The new owner's collaboration goes; other collaborators keep theirs; the old owner keeps nothing.
  assert.is(await collaboration(app, repo.id, bob.id), undefined);
  assert.is(await collaboration(app, repo.id, carol.id), 'read');
  assert.is(await permissionOf(app, moved, bob), 'owner');
  assert.is(await permissionOf(app, moved, carol), 'read');
  assert.is((await getRepo(app, bob.username, repo.name, alice.auth)).response.status, 404, 'alice lost the private repository');
});

test('422: a name taken at commit time (the unique index decides) puts the folders back', async () => {
  const repo = await userRepo(app, alice, { auto_init: true });
  const wiki = repoFolder(app, alice.username, repo.name).replace(/\.git$/, '.wiki.git');
  git(app.config.dataDir, ['init', '--bare', '--quiet', wiki]);
  const db = app.services.deps.db;
  // Fails at commit, after the folders moved, as a concurrent transfer of the same name would.
  await db.execute(sql.raw(`create function anvil_test_taken() returns trigger language plpgsql as $$
    begin raise exception 'taken' using errcode = 'unique_violation'; end $$`));
  await db.execute(sql.raw(`create constraint trigger anvil_test_taken after update on repositories
    deferrable initially deferred for each row when (new.id = ${repo.id}) execute function anvil_test_taken()`));
  try {
    const r = await transfer(app, repo, { new_owner: bob.username }, admin.auth);
    assert.is(r.response.status, 422);
    assertSpec('repoTransfer', r);
    assert.match(messageOf(r.error), 'already exists');
  } finally {
    await db.execute(sql.raw('drop trigger anvil_test_taken on repositories'));
    await db.execute(sql.raw('drop function anvil_test_taken()'));
  }
  assert.ok(existsSync(repoFolder(app, alice.username, repo.name)), 'folder back');
  assert.ok(existsSync(wiki), 'wiki back');
  assert.not.ok(existsSync(repoFolder(app, bob.username, repo.name)));
  assert.is((await getRepo(app, alice.username, repo.name, alice.auth)).response.status, 200);
  git(repoFolder(app, alice.username, repo.name), ['rev-parse', 'HEAD']);
});

test('202: an organization owner moves an organization repository to themselves; the old teams lose it', async () => {
  const repo = await orgRepo(app, w.name, w.owner, { auto_init: true });
  await app.services.deps.db.insert(teamRepos).values({ teamId: w.teams.creators.id, repoId: repo.id, orgId: w.org.id });
  assert.is(await permissionOf(app, repo, w.creator), 'write');
  const r = await transfer(app, repo, { new_owner: w.owner.username }, w.owner.auth);
  assert.is(r.response.status, 202);
  assertSpec('repoTransfer', r);
  await assertMoved(app, w.name, w.owner.username, repo.name, w.owner.auth, 'README.md');
  assert.equal(await teamsOf(app, repo.id), []);
  assert.is(await permissionOf(app, r.data!, w.owner), 'owner');
});

test('202: to an organization where the owner may create repositories; team_ids get access', async () => {
  const repo = await userRepo(app, w.creator, { private: true, auto_init: true });
  await addCollaborator(app, repo, w.owner, 'write');
  await addCollaborator(app, repo, w.member, 'read');
  const r = await transfer(app, repo, { new_owner: w.name, team_ids: [w.teams.creators.id] }, w.creator.auth);
  assert.is(r.response.status, 202);
  assertSpec('repoTransfer', r);
  assert.is(r.data!.owner!.login, w.name);
  assert.equal(r.data!.permissions, { admin: true, push: true, pull: true });
  await assertMoved(app, w.creator.username, w.name, repo.name, w.owner.auth, 'README.md');
  assert.equal(await teamsOf(app, repo.id), [w.teams.creators.id]);
  assert.is(await collaboration(app, repo.id, w.owner.id), undefined, 'the organization owner owns it now');
  assert.is(await collaboration(app, repo.id, w.member.id), 'read', 'other collaborators stay');
  assert.is(await permissionOf(app, r.data!, w.creator), 'write', 'the old owner reaches it through the given team');
  assert.is((await getRepo(app, w.name, repo.name, w.outsider.auth)).response.status, 404);
});

test('201: left pending for a user; the recipient becomes a read collaborator; repo_transfer filled', async () => {
  const repo = await userRepo(app, alice, { private: true });
  const r = await transfer(app, repo, { new_owner: carol.username }, alice.auth);
  assert.is(r.response.status, 201);
  assertSpec('repoTransfer', r);
  const answer = r.data!;
  assert.is(answer.full_name, `${alice.username}/${repo.name}`);
  assert.equal(answer.permissions, { admin: true, push: true, pull: true });
  assert.is(answer.repo_transfer!.doer.login, alice.username);
  assert.is(answer.repo_transfer!.recipient.login, carol.username);
  assert.equal(answer.repo_transfer!.teams, []);
  assert.ok(existsSync(repoFolder(app, alice.username, repo.name)), 'folder unchanged');
  assert.is(await collaboration(app, repo.id, carol.id), 'read');
  const seen = await getRepo(app, alice.username, repo.name, carol.auth);
  assert.is(seen.response.status, 200, 'the recipient sees the repository');
  assert.is(seen.data!.repo_transfer!.recipient.id, carol.id);
  assert.equal(seen.data!.permissions, { admin: false, push: false, pull: true });

  const again = await transfer(app, repo, { new_owner: bob.username }, alice.auth);
  assert.is(again.response.status, 409);
  assertSpec('repoTransfer', again);
  assert.match(messageOf(again.error), 'already being transferred');
  const byAdmin = await transfer(app, repo, { new_owner: bob.username }, admin.auth);
  assert.is(byAdmin.response.status, 409, 'a direct transfer waits for the pending one too');
  assert.is((await pendingRow(app, repo.id))!.recipientId, carol.id);
});

test('201: a public repository offered to a user needs no collaborator row', async () => {
  const repo = await userRepo(app, alice);
  const r = await transfer(app, repo, { new_owner: bob.username }, alice.auth);
  assert.is(r.response.status, 201);
  assert.is(await collaboration(app, repo.id, bob.id), undefined);
  assert.is((await pendingRow(app, repo.id))!.grantedRead, false);
});

test('201: to an organization where the owner may not create repositories, with its teams listed', async () => {
  const repo = await orgRepo(app, w.name, w.owner);
  const outsiderOrg = await app.services.orgs.create((await app.services.users.byId(carol.id))!, { username: fresh('org') });
  const teamsOfTarget = await app.services.teams.create(outsiderOrg, { name: 'devs', permission: 'write', units: ['repo.code'] });
  const r = await transfer(app, repo, { new_owner: outsiderOrg.name, team_ids: [teamsOfTarget.team.id] }, w.owner.auth);
  assert.is(r.response.status, 201);
  assertSpec('repoTransfer', r);
  assert.is(r.data!.full_name, `${w.name}/${repo.name}`);
  assert.is(r.data!.repo_transfer!.recipient.login, outsiderOrg.name);
  assert.is(r.data!.repo_transfer!.recipient.type, 'Organization');
  assert.equal(r.data!.repo_transfer!.teams.map((t) => t.name), ['devs']);
  assert.equal(r.data!.repo_transfer!.teams[0]!.units_map, { 'repo.code': 'write' });
  assert.is(r.data!.repo_transfer!.teams[0]!.organization, null);
  assert.equal(await teamsOf(app, repo.id), [], 'no access before acceptance');
  const row = (await pendingRow(app, repo.id))!;
  assert.equal(row.teamIds, [teamsOfTarget.team.id]);
  assert.is(row.grantedRead, false, 'an organization gets no collaborator row');
});

test.run();
