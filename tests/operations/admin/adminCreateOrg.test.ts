// adminCreateOrg: an organization created for a user, who owns it, whatever the creation settings say.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { users } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createOrg } from '../../helpers/orgs.js';
import { actor, fresh } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly } from '../../helpers/userAdmin.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  // Plain users may not create organizations here: the administrator still may, for them.
  app = await startApp({ ALLOW_CREATE_ORGANIZATION: 'false' });
  asAdmin = await app.token(app.admin, ['write:admin']);
});
test.after(async () => {
  await app.close();
});

const create = (username: string, body: { username: string; visibility?: 'public' | 'limited' | 'private'; full_name?: string }, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).POST('/admin/users/{username}/orgs', { params: { path: { username } }, body });

test('201: the organization exists and the user owns it (its Owners team), even where they could not create one', async () => {
  const u = await actor(app);
  await app.services.deps.db.update(users).set({ allowCreateOrganization: false }).where(eq(users.id, u.id));
  assert.is((await app.client(u.auth).POST('/orgs', { body: { username: fresh('own') } })).response.status, 403);
  const name = fresh('org');
  const res = await create(u.username, { username: name, full_name: 'Made for you', visibility: 'private' });
  assert.is(res.response.status, 201);
  assertSpec('adminCreateOrg', res);
  assert.equal([res.data!.name, res.data!.full_name, res.data!.visibility], [name, 'Made for you', 'private']);
  const teams = await app.client(u.auth).GET('/orgs/{org}/teams', { params: { path: { org: name } } });
  assert.is(teams.response.status, 200, 'the user sees their private organization');
  assert.equal(teams.data!.map((t) => [t.name, t.permission]), [['Owners', 'owner']]);
  const repo = await app.client(u.auth).POST('/orgs/{org}/repos', { params: { path: { org: name } }, body: { name: 'first' } });
  assert.is(repo.response.status, 201, 'as owner they may create repositories in it');
});

test('422: a taken or malformed name, an organization as owner; 404: an unknown user', async () => {
  const u = await actor(app);
  const taken = await create(u.username, { username: u.username.toUpperCase() });
  assert.is(taken.response.status, 422);
  assertSpec('adminCreateOrg', taken);
  assert.is((await create(u.username, { username: 'bad name' })).response.status, 422);
  const org = await createOrg(app, app.admin);
  const byOrg = await create(org.name, { username: fresh('org') });
  assert.is(byOrg.response.status, 422);
  assert.match((byOrg.error as { message: string }).message, /only a user can own/);
  assert.is((await create('no-such-user', { username: fresh('org') })).response.status, 404);
});

test('401, 403: nothing is created', async () => {
  const u = await actor(app);
  const name = fresh('org');
  await assertAdminOnly(app, (auth) => create(u.username, { username: name }, auth), 'write:admin');
  assert.is(await app.services.orgs.byName(name), undefined);
});

test.run();
