import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allRefused, orgBlockPath, refusals } from '../../helpers/blocks.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, createOrgRepo, messageOf, orgWorld, type OrgWorld } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let w: OrgWorld;
let hidden: OrgWorld;

test.before(async () => {
  app = await startApp();
  w = await orgWorld(app);
  hidden = await orgWorld(app, 'private', w);
});
test.after(async () => {
  await app.close();
});

const put = (org: string, username: string, auth?: string) => app.client(auth).PUT('/orgs/{org}/blocks/{username}', orgBlockPath(org, username));

test('204 for an owner: the blocked user is refused around the organization, and may not join it', async () => {
  const [x, y] = await Promise.all([actor(app), actor(app)]);
  const repo = await createOrgRepo(app, w.owner, w.org.name);
  await expectStatus('organizationBlockUser', await put(w.org.name, x.username, w.owner.auth), 204, 'owner');
  assert.equal(await refusals(app, x, repo, w.owner), allRefused);
  const join = await app.client(w.owner.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: w.readers.id, username: x.username } } });
  assert.is(join.response.status, 403);
  assert.is(messageOf(join.error), 'user is blocked');
  await expectStatus('organizationBlockUser', await put(w.org.name, y.username, (await adminActor(app)).auth), 204, 'site administrator');
});

test('400: a member of the organization, the organization itself, a user already blocked', async () => {
  let res = await put(w.org.name, w.member.username, w.owner.auth);
  await expectStatus('organizationBlockUser', res, 400, 'member');
  assert.is(messageOf(res.error), 'cannot block the user');
  res = await put(w.org.name, w.org.name, w.owner.auth);
  await expectStatus('organizationBlockUser', res, 400, 'the organization');
  assert.is(messageOf(res.error), 'cannot block an organization');
  const z = await actor(app);
  await expectStatus('organizationBlockUser', await put(w.org.name, z.username, w.owner.auth), 204, 'first');
  await expectStatus('organizationBlockUser', await put(w.org.name, z.username, w.owner.auth), 400, 'again');
});

test('403: a member who is not an owner; 404: an invisible organization, an unknown user', async () => {
  const z = await actor(app);
  const res = await put(w.org.name, z.username, w.member.auth);
  await expectStatus('organizationBlockUser', res, 403, 'member');
  assert.is(messageOf(res.error), 'Must be an organization owner');
  await expectStatus('organizationBlockUser', await put(w.org.name, z.username, w.outsider.auth), 403, 'outsider of a public org');
  await expectStatus('organizationBlockUser', await put(hidden.org.name, z.username, w.outsider.auth), 404, 'private org');
  await expectStatus('organizationBlockUser', await put(w.org.name, 'nobody-here', w.owner.auth), 404, 'unknown user');
  await expectStatus('organizationBlockUser', await put('no-such-org', z.username, w.owner.auth), 404, 'unknown org');
});

test('401 anonymous and wrong credentials; 403 token without write:organization', async () => {
  const z = await actor(app);
  await expectStatus('organizationBlockUser', await put(w.org.name, z.username), 401, 'anonymous');
  await expect401('organizationBlockUser', (auth) => put(w.org.name, z.username, auth));
  await expectStatus('organizationBlockUser', await put(w.org.name, z.username, await app.token(w.owner, ['read:organization'])), 403, 'read scope');
});

test.run();
