import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createTeam, unitsAt, type Actor, type Team } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';
import type { components } from '../../../generated/openapi.js';

let app: TestApp;
let w: PeopleWorld;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  [w, admin] = await Promise.all([peopleWorld(app), adminActor(app)]);
});
test.after(async () => {
  await app.close();
});

const edit = (id: number, body: components['schemas']['EditTeamOption'], auth?: string) =>
  app.client(auth).PATCH('/teams/{id}', { params: { path: { id } }, body });
const perms = async (a: Actor, repo = w.secret.name) =>
  (await app.client(a.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo } } })).data?.permissions;

test('200: an owner edits name, description, visibility and repository creation', async () => {
  const team = await createTeam(app, w.owner, w.org.name, { name: 'before', units_map: { 'repo.code': 'read' } });
  const res = await edit(team.id, { name: 'after', description: 'now', visibility: 'public', can_create_org_repo: true }, w.owner.auth);
  await expectStatus('orgEditTeam', res, 200, 'owner');
  assert.equal(res.data, { ...team, name: 'after', description: 'now', visibility: 'public', can_create_org_repo: true });
  const got = await app.client(w.owner.auth).GET('/teams/{id}', { params: { path: { id: team.id } } });
  assert.equal(got.data, res.data, 'stored');
  const same = await edit(team.id, {}, admin.auth);
  await expectStatus('orgEditTeam', same, 200, 'admin, nothing given');
  assert.equal(same.data!.name, 'after');
});

test('200: new units and every repository apply to the members at once', async () => {
  const user = await actor(app);
  const team = await createTeam(app, w.owner, w.org.name, { units_map: { 'repo.code': 'read' } });
  await addTeamMember(app, w.owner, team.id, user.username);
  assert.is(await perms(user), undefined, 'no access to the private repository');
  const all = await edit(team.id, { includes_all_repositories: true, units_map: { 'repo.code': 'write', 'repo.issues': 'read' } }, w.owner.auth);
  await expectStatus('orgEditTeam', all, 200, 'units and every repository');
  assert.equal(all.data!.units_map, { 'repo.code': 'write', 'repo.issues': 'read' });
  assert.equal(await perms(user), { admin: false, push: true, pull: true });
  const adm = await edit(team.id, { permission: 'admin' }, w.owner.auth);
  assert.is(adm.data!.permission, 'admin');
  assert.equal(adm.data!.units_map, unitsAt('admin'));
  assert.equal(await perms(user), { admin: true, push: true, pull: true });
  // Below admin without units: the permission applies to the units the team grants.
  const rd = await edit(team.id, { permission: 'read' }, w.owner.auth);
  assert.equal(rd.data!.units_map, Object.fromEntries(Object.keys(unitsAt('admin')).map((u) => [u, 'read'])));
  assert.equal(await perms(user), { admin: false, push: false, pull: true });
  // Every repository switched off: the team keeps today's repositories, not future ones.
  await edit(team.id, { includes_all_repositories: false }, w.owner.auth);
  assert.equal(await perms(user), { admin: false, push: false, pull: true });
  const later = await app.client(w.owner.auth).POST('/orgs/{org}/repos', { params: { path: { org: w.org.name } }, body: { name: 'later', private: true } });
  assert.is(later.response.status, 201);
  assert.is(await perms(user, 'later'), undefined);
});

test('200: the Owners team keeps owner access, every repository and repository creation', async () => {
  const res = await edit(w.owners.id, { permission: 'read', includes_all_repositories: false, can_create_org_repo: false, units_map: { 'repo.code': 'read' }, description: 'the owners' }, w.owner.auth);
  await expectStatus('orgEditTeam', res, 200, 'Owners');
  assert.equal(res.data, { ...w.owners, description: 'the owners' });
  assert.equal(await perms(w.owner), { admin: true, push: true, pull: true });
});

test('422: renaming the Owners team, a taken or reserved name', async () => {
  const owners = await edit(w.owners.id, { name: 'Bosses' }, w.owner.auth);
  await expectStatus('orgEditTeam', owners, 422, 'Owners renamed');
  assert.is((owners.error as { message: string }).message, 'the Owners team cannot be renamed');
  await expectStatus('orgEditTeam', await edit(w.owners.id, { name: 'Owners' }, w.owner.auth), 200, 'Owners, same name');
  const taken = await edit(w.readers.id, { name: 'CREATORS' }, w.owner.auth);
  await expectStatus('orgEditTeam', taken, 422, 'taken');
  assert.is((taken.error as { message: string }).message, 'team already exists [name: CREATORS]');
  await expectStatus('orgEditTeam', await edit(w.readers.id, { name: 'new' }, w.owner.auth), 422, 'reserved');
  await expectStatus('orgEditTeam', await edit(w.readers.id, { name: 'bad name' }, w.owner.auth), 422, 'pattern');
});

test('403: members who are not owners', async () => {
  const res = await edit(w.readers.id, { description: 'x' }, w.member.auth);
  await expectStatus('orgEditTeam', res, 403, 'team member');
  assert.is((res.error as { message: string }).message, 'Must be an organization owner');
});

test('404: a team the caller cannot see, an unknown team', async () => {
  await expectStatus('orgEditTeam', await edit(w.readers.id, { description: 'x' }, w.outsider.auth), 404, 'private team');
  await expectStatus('orgEditTeam', await edit(999999, { description: 'x' }, admin.auth), 404, 'unknown');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('orgEditTeam', await edit(w.readers.id, {}), 401, 'anonymous');
  await expect401('orgEditTeam', (auth) => edit(w.readers.id, {}, auth));
});

test.run();
