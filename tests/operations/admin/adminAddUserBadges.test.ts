// POST /admin/users/{username}/badges: site administrators give a user existing badges, all or none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addBadges, badgesOf, newBadge } from '../../helpers/badges.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, createOrg, messageOf, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let admin: Actor;
test.before(async () => {
  app = await startApp();
  admin = await adminActor(app);
});
test.after(async () => {
  await app?.close();
});

test('204: the user holds every badge named; an empty list changes nothing', async () => {
  const u = await actor(app);
  const [b1, b2] = [await newBadge(app), await newBadge(app)];
  await expectStatus('adminAddUserBadges', await addBadges(app, admin, u.username, [b1, b2]), 204, 'two');
  assert.equal(await badgesOf(app, admin, u.username), [b1, b2].sort());
  await expectStatus('adminAddUserBadges', await addBadges(app, admin, u.username, []), 204, 'none');
  assert.equal(await badgesOf(app, admin, u.username), [b1, b2].sort());
});

test('422: a slug no badge has, or a badge held already; nothing of the request is given', async () => {
  const u = await actor(app);
  const [b1, b2] = [await newBadge(app), await newBadge(app)];
  let res = await addBadges(app, admin, u.username, [b1, 'no-such-badge']);
  await expectStatus('adminAddUserBadges', res, 422, 'unknown slug');
  assert.is(messageOf(res.error), 'badge does not exist [slug: no-such-badge]');
  assert.equal(await badgesOf(app, admin, u.username), []);
  assert.is((await addBadges(app, admin, u.username, [b1])).response.status, 204);
  res = await addBadges(app, admin, u.username, [b2, b1]);
  await expectStatus('adminAddUserBadges', res, 422, 'held already');
  assert.match(messageOf(res.error) ?? '', /^user badge already exists/);
  assert.equal(await badgesOf(app, admin, u.username), [b1]);
  await expectStatus('adminAddUserBadges', await app.client(admin.auth).POST('/admin/users/{username}/badges', {
    params: { path: { username: u.username } }, body: { badge_slugs: 'x' } as never,
  }), 422, 'not a list');
});

test('403: not a site administrator, or a token without the admin scope; 401: anonymous, wrong credentials', async () => {
  const u = await actor(app);
  const b = await newBadge(app);
  await expectStatus('adminAddUserBadges', await addBadges(app, u, u.username, [b]), 403, 'user');
  await expectStatus('adminAddUserBadges', await addBadges(app, { ...admin, auth: await app.token(app.admin, ['write:user']) }, u.username, [b]), 403, 'scope');
  await expectStatus('adminAddUserBadges', await addBadges(app, { ...u, auth: undefined as never }, u.username, [b]), 401, 'anonymous');
  await expect401('adminAddUserBadges', (auth) => addBadges(app, { ...u, auth }, u.username, [b]));
  assert.equal(await badgesOf(app, admin, u.username), []);
});

test('404: an unknown user or an organization', async () => {
  const b = await newBadge(app);
  await expectStatus('adminAddUserBadges', await addBadges(app, admin, 'nobody-here', [b]), 404, 'unknown');
  const org = await createOrg(app, await actor(app));
  await expectStatus('adminAddUserBadges', await addBadges(app, admin, org.name, [b]), 404, 'organization');
});

test.run();
