// updateUserSettings: only the fields given change; hide_activity empties the heatmap for others.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';
import { pathOf, userRepo } from '../../helpers/repos.js';

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

const patch = (auth: string | undefined, body: Record<string, unknown>) => app.client(auth).PATCH('/user/settings', { body });

test('200: the fields given change, the others stay; GET and GET /user answer the change', async () => {
  const a = await actor(app);
  const res = await patch(a.auth, { full_name: 'Ann Example', website: 'https://example.test', language: 'de-DE', theme: 'gitea-dark', diff_view_style: 'split', hide_email: true });
  await expectStatus('updateUserSettings', res, 200, 'first');
  assert.equal(res.data, {
    full_name: 'Ann Example', website: 'https://example.test', description: '', location: '', language: 'de-DE',
    theme: 'gitea-dark', diff_view_style: 'split', hide_email: true, hide_activity: false,
  });
  const again = await patch(a.auth, { description: 'hello', location: 'Here', hide_email: false });
  assert.equal(again.data, { ...res.data!, description: 'hello', location: 'Here', hide_email: false });
  assert.equal((await app.client(a.auth).GET('/user/settings')).data, again.data);
  const me = (await app.client(a.auth).GET('/user')).data!;
  assert.is(me.full_name, 'Ann Example');
  assert.is(me.description, 'hello');
  assert.is(me.location, 'Here');
});

test('hide_activity: the heatmap is empty for others, still full for the user and site administrators', async () => {
  const [a, other] = await Promise.all([actor(app), actor(app)]);
  const repo = await userRepo(app, a);
  assert.is((await app.client(a.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: pathOf(repo) }, body: { title: 'counted' } })).response.status, 201);
  const heatmap = async (auth?: string) => (await app.client(auth).GET('/users/{username}/heatmap', { params: { path: { username: a.username } } })).data!.length;
  assert.ok((await heatmap(other.auth)) > 0, 'visible before');
  assert.is((await patch(a.auth, { hide_activity: true })).data!.hide_activity, true);
  assert.is(await heatmap(other.auth), 0, 'another user');
  assert.is(await heatmap(), 0, 'anonymous');
  assert.ok((await heatmap(a.auth)) > 0, 'the user');
  assert.ok((await heatmap(await app.token(app.admin, ['read:user']))) > 0, 'a site administrator');
  await patch(a.auth, { hide_activity: false });
  assert.ok((await heatmap(other.auth)) > 0, 'visible again');
});

test('422 for too long a value or a wrong type, nothing changed; 401 anonymous; 403 for a read-only token', async () => {
  const a = await actor(app);
  const long = await patch(a.auth, { full_name: 'x'.repeat(101), location: 'Kept out' });
  await expectStatus('updateUserSettings', long, 422, 'full_name too long');
  assert.is((await patch(a.auth, { language: 'abcdef' })).response.status, 422);
  assert.is((await patch(a.auth, { hide_email: 'yes' })).response.status, 422);
  assert.is((await app.client(a.auth).GET('/user/settings')).data!.location, '', 'nothing changed');
  await expect401('updateUserSettings', (auth) => patch(auth, { location: 'x' }));
  assert.is((await patch(undefined, { location: 'x' })).response.status, 401, 'anonymous');
  const readOnly = await patch(await app.token(a, ['read:user']), { location: 'x' });
  await expectStatus('updateUserSettings', readOnly, 403, 'read:user only');
});

test.run();
