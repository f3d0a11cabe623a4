// GET /admin/users/{username}/badges: site administrators read a user's badges, by slug, with X-Total-Count.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addBadges, newBadge } from '../../helpers/badges.js';
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

const list = (username: string, auth?: string) => app.client(auth).GET('/admin/users/{username}/badges', { params: { path: { username } } });

test('200: the badges the user holds, by slug, with their fields and X-Total-Count; none is an empty list', async () => {
  const u = await actor(app);
  const empty = await list(u.username, admin.auth);
  await expectStatus('adminListUserBadges', empty, 200, 'none');
  assert.equal([empty.data, empty.response.headers.get('x-total-count')], [[], '0']);
  const [b1, b2, other] = [await newBadge(app, 'first'), await newBadge(app, 'second'), await newBadge(app)];
  assert.is((await addBadges(app, admin, u.username, [b2, b1])).response.status, 204);
  const res = await list(u.username, admin.auth);
  await expectStatus('adminListUserBadges', res, 200, 'two');
  assert.equal(res.data!.map((b) => b.slug), [b1, b2].sort());
  assert.not.ok(res.data!.some((b) => b.slug === other));
  const first = res.data!.find((b) => b.slug === b1)!;
  assert.equal([first.description, first.image_url, typeof first.id], ['first', `https://example.com/${b1}.png`, 'number']);
  assert.is(res.response.headers.get('x-total-count'), '2');
});

test('403: not a site administrator, or a token without the admin scope; 401: anonymous, wrong credentials', async () => {
  const u = await actor(app);
  await expectStatus('adminListUserBadges', await list(u.username, u.auth), 403, 'user');
  await expectStatus('adminListUserBadges', await list(u.username, await app.token(app.admin, ['read:user'])), 403, 'scope');
  await expectStatus('adminListUserBadges', await list(u.username), 401, 'anonymous');
  await expect401('adminListUserBadges', (auth) => list(u.username, auth));
});

test('404: an unknown user or an organization', async () => {
  await expectStatus('adminListUserBadges', await list('nobody-here', admin.auth), 404, 'unknown');
  const org = await createOrg(app, await actor(app));
  await expectStatus('adminListUserBadges', await list(org.name, admin.auth), 404, 'organization');
});

test.run();
