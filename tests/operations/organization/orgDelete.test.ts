import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { count, eq } from 'drizzle-orm';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createOrg, createTeam, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';
import { hooks, labels, orgMembers, projects, teamMembers, teams } from '../../../src/db/schema/index.js';

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

const del = (org: string, auth?: string) => app.client(auth).DELETE('/orgs/{org}', { params: { path: { org } } });

/** Rows left that belong to the organization. */
async function leftovers(orgId: number): Promise<number> {
  const db = app.services.deps.db;
  const n = await Promise.all([
    db.select({ n: count() }).from(teams).where(eq(teams.orgId, orgId)),
    db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.orgId, orgId)),
    db.select({ n: count() }).from(orgMembers).where(eq(orgMembers.orgId, orgId)),
    db.select({ n: count() }).from(hooks).where(eq(hooks.ownerId, orgId)),
    db.select({ n: count() }).from(labels).where(eq(labels.orgId, orgId)),
    db.select({ n: count() }).from(projects).where(eq(projects.ownerId, orgId)),
  ]);
  return n.reduce((a, [r]) => a + (r?.n ?? 0), 0);
}

test('204: an owner deletes an organization without repositories; nothing of it is left', async () => {
  const owner = await actor(app);
  const org = await createOrg(app, owner);
  const team = await createTeam(app, owner, org.name);
  await addTeamMember(app, owner, team.id, w.member.username);
  const c = app.client(owner.auth);
  assert.is((await c.POST('/orgs/{org}/hooks', { params: { path: { org: org.name } }, body: { type: 'gitea', config: { url: 'http://example.com/hook', content_type: 'json' } } })).response.status, 201);
  assert.is((await c.POST('/orgs/{org}/projects', { params: { path: { org: org.name } }, body: { title: 'plan' } })).response.status, 201);
  assert.ok((await leftovers(org.id)) >= 6);
  await expectStatus('orgDelete', await del(org.name, owner.auth), 204, 'owner');
  assert.is((await c.GET('/orgs/{org}', { params: { path: { org: org.name } } })).response.status, 404);
  assert.is((await c.GET('/teams/{id}', { params: { path: { id: team.id } } })).response.status, 404);
  assert.is(await leftovers(org.id), 0);
  // The name is free again.
  const again = await createOrg(app, owner, { username: org.name });
  assert.is(again.name, org.name);
});

test('204: a site admin deletes an organization', async () => {
  const org = await createOrg(app, w.outsider);
  await expectStatus('orgDelete', await del(org.name, admin.auth), 204, 'admin');
});

test('422: an organization that still owns repositories is kept', async () => {
  const res = await del(w.org.name, w.owner.auth);
  await expectStatus('orgDelete', res, 422, 'with repositories');
  assert.match((res.error as { message: string }).message, /^organization still has ownership of repositories \[uid: \d+, count: 2\]$/);
  assert.is((await app.client(w.owner.auth).GET('/orgs/{org}', { params: { path: { org: w.org.name } } })).response.status, 200);
});

test('403: a member who is not an owner, an outsider', async () => {
  const res = await del(w.org.name, w.member.auth);
  await expectStatus('orgDelete', res, 403, 'member');
  assert.is((res.error as { message: string }).message, 'Must be an organization owner');
  await expectStatus('orgDelete', await del(w.org.name, w.outsider.auth), 403, 'outsider');
});

test('404: an unknown organization, a user, a private organization to outsiders', async () => {
  await expectStatus('orgDelete', await del('no-such-org', admin.auth), 404, 'unknown');
  await expectStatus('orgDelete', await del(w.owner.username, admin.auth), 404, 'user');
  const priv = await createOrg(app, w.owner, { visibility: 'private' });
  await expectStatus('orgDelete', await del(priv.name, w.outsider.auth), 404, 'private');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('orgDelete', await del(w.org.name), 401, 'anonymous');
  await expect401('orgDelete', (auth) => del(w.org.name, auth));
});

test.run();
