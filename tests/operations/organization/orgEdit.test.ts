import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { adminActor, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';
import { raw } from '../../helpers/repos.js';

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

type Body = { full_name?: string; email?: string; description?: string; website?: string; location?: string; visibility?: 'public' | 'limited' | 'private' | ''; repo_admin_change_team_access?: boolean };
const edit = (body: Body, auth?: string, org = w.org.name) => app.client(auth).PATCH('/orgs/{org}', { params: { path: { org } }, body });
const get = (auth?: string) => app.client(auth).GET('/orgs/{org}', { params: { path: { org: w.org.name } } });

test('200: an owner changes the fields given, and only those', async () => {
  const res = await edit({ full_name: 'Full', description: 'about', website: 'https://example.com', location: 'Here', email: 'org@example.com', repo_admin_change_team_access: true }, w.owner.auth);
  await expectStatus('orgEdit', res, 200, 'owner');
  assert.equal(
    { ...res.data!, avatar_url: undefined },
    { ...w.org, avatar_url: undefined, full_name: 'Full', description: 'about', website: 'https://example.com', location: 'Here', email: 'org@example.com', repo_admin_change_team_access: true },
  );
  assert.equal((await get(w.owner.auth)).data, res.data, 'stored');
  const again = await edit({ location: 'There', visibility: '' }, admin.auth);
  await expectStatus('orgEdit', again, 200, 'admin');
  assert.is(again.data!.location, 'There');
  assert.is(again.data!.full_name, 'Full', 'untouched');
  assert.is(again.data!.visibility, 'public', 'an empty visibility leaves it');
});

test('200: a new visibility applies at once', async () => {
  await expectStatus('orgEdit', await edit({ visibility: 'private' }, w.owner.auth), 200, 'private');
  assert.is((await get(w.outsider.auth)).response.status, 404);
  assert.is((await get(w.member.auth)).response.status, 200);
  await expectStatus('orgEdit', await edit({ visibility: 'public' }, w.owner.auth), 200, 'public');
  assert.is((await get(w.outsider.auth)).response.status, 200);
});

test('403: a member who is not an owner; an outsider', async () => {
  const res = await edit({ full_name: 'no' }, w.member.auth);
  await expectStatus('orgEdit', res, 403, 'member');
  assert.is((res.error as { message: string }).message, 'Must be an organization owner');
  await expectStatus('orgEdit', await edit({ full_name: 'no' }, w.outsider.auth), 403, 'outsider');
  assert.is.not((await get(w.owner.auth)).data!.full_name, 'no');
});

test('404: an unknown organization, a user', async () => {
  await expectStatus('orgEdit', await edit({}, admin.auth, 'no-such-org'), 404, 'unknown');
  await expectStatus('orgEdit', await edit({}, admin.auth, w.owner.username), 404, 'user');
});

test('422: an invalid e-mail, website or visibility', async () => {
  await expectStatus('orgEdit', await edit({ email: 'not an address' }, w.owner.auth), 422, 'email');
  await expectStatus('orgEdit', await edit({ website: 'ftp://x' }, w.owner.auth), 422, 'website');
  const res = await raw(app, 'PATCH', `/orgs/${w.org.name}`, { body: '{"visibility":"secret"}', authorization: w.owner.auth });
  assert.is(res.response.status, 422);
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('orgEdit', await edit({}), 401, 'anonymous');
  await expect401('orgEdit', (auth) => edit({}, auth));
});

test.run();
