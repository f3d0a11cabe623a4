// DELETE /admin/users/{username}/badges: site administrators take badges from a user.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addBadges, badgesOf, newBadge, removeBadges } from '../../helpers/badges.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, createOrg, type Actor } from '../../helpers/orgs.js';
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

test('204: the badges named go, the others stay (on this user and on others); slugs not held change nothing', async () => {
  const [u, v] = [await actor(app), await actor(app)];
  const [b1, b2, b3] = [await newBadge(app), await newBadge(app), await newBadge(app)];
  assert.is((await addBadges(app, admin, u.username, [b1, b2])).response.status, 204);
  assert.is((await addBadges(app, admin, v.username, [b1])).response.status, 204);
  await expectStatus('adminDeleteUserBadges', await removeBadges(app, admin, u.username, [b1, b3, 'no-such-badge']), 204, 'remove');
  assert.equal(await badgesOf(app, admin, u.username), [b2]);
  assert.equal(await badgesOf(app, admin, v.username), [b1], "another user's badge stays");
  await expectStatus('adminDeleteUserBadges', await removeBadges(app, admin, u.username, [b1]), 204, 'again');
  await expectStatus('adminDeleteUserBadges', await removeBadges(app, admin, u.username, []), 204, 'none');
  assert.equal(await badgesOf(app, admin, u.username), [b2]);
});

test('403: not a site administrator, or a token without the admin scope; 401: anonymous, wrong credentials', async () => {
  const u = await actor(app);
  const b = await newBadge(app);
  assert.is((await addBadges(app, admin, u.username, [b])).response.status, 204);
  await expectStatus('adminDeleteUserBadges', await removeBadges(app, u, u.username, [b]), 403, 'user');
  await expectStatus('adminDeleteUserBadges', await removeBadges(app, { ...admin, auth: await app.token(app.admin, ['write:user']) }, u.username, [b]), 403, 'scope');
  await expectStatus('adminDeleteUserBadges', await removeBadges(app, { ...u, auth: undefined as never }, u.username, [b]), 401, 'anonymous');
  await expect401('adminDeleteUserBadges', (auth) => removeBadges(app, { ...u, auth }, u.username, [b]));
  assert.equal(await badgesOf(app, admin, u.username), [b]);
});

test('404: an unknown user or an organization; 422: a body that is not a list of slugs', async () => {
  await expectStatus('adminDeleteUserBadges', await removeBadges(app, admin, 'nobody-here', ['x']), 404, 'unknown');
  const org = await createOrg(app, await actor(app));
  await expectStatus('adminDeleteUserBadges', await removeBadges(app, admin, org.name, ['x']), 404, 'organization');
  await expectStatus('adminDeleteUserBadges', await app.client(admin.auth).DELETE('/admin/users/{username}/badges', {
    params: { path: { username: (await actor(app)).username } }, body: { badge_slugs: [1] } as never,
  }), 422, 'not strings');
});

test.run();
