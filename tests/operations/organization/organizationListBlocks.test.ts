import { test } from 'uvu';
import { orgBlock } from '../../helpers/blocks.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, orgWorld, type Actor, type OrgWorld } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let w: OrgWorld;
let hidden: OrgWorld;
let blocked: Actor[];

test.before(async () => {
  app = await startApp();
  w = await orgWorld(app);
  hidden = await orgWorld(app, 'private', w);
  blocked = await Promise.all([actor(app), actor(app), actor(app)]);
  for (const b of blocked) await orgBlock(app, w.owner, w.org.name, b.username);
});
test.after(async () => {
  await app.close();
});

const list = (org: string, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/orgs/{org}/blocks', { params: { path: { org }, query } });
const login = (u: { login: string }) => u.login;

test('200 to owners and site administrators: most recent block first, in pages', async () => {
  const want = blocked.map((b) => b.username).reverse();
  expectList('organizationListBlocks', await list(w.org.name, w.owner.auth), login, want, 'owner');
  expectList('organizationListBlocks', await list(w.org.name, (await adminActor(app)).auth), login, want, 'site administrator');
  expectList('organizationListBlocks', await list(hidden.org.name, w.owner.auth), login, [], 'another organization');
  expectFirstPageOfTwo(await list(w.org.name, w.owner.auth, { limit: 2 }), 3);
});

test('403: members who are not owners, outsiders; 404: an invisible or unknown organization', async () => {
  await expectStatus('organizationListBlocks', await list(w.org.name, w.member.auth), 403, 'member');
  await expectStatus('organizationListBlocks', await list(w.org.name, w.outsider.auth), 403, 'outsider');
  await expectStatus('organizationListBlocks', await list(hidden.org.name, w.outsider.auth), 404, 'private org');
  await expectStatus('organizationListBlocks', await list('no-such-org', w.owner.auth), 404, 'unknown');
});

test('401 anonymous and wrong credentials; 403 token without read:organization', async () => {
  await expectStatus('organizationListBlocks', await list(w.org.name), 401, 'anonymous');
  await expect401('organizationListBlocks', (auth) => list(w.org.name, auth));
  await expectStatus('organizationListBlocks', await list(w.org.name, await app.token(w.owner, ['read:user'])), 403, 'other scope');
});

test.run();
