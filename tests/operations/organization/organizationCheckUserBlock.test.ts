import { test } from 'uvu';
import { orgBlock, orgBlockPath } from '../../helpers/blocks.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, orgWorld, type Actor, type OrgWorld } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let w: OrgWorld;
let hidden: OrgWorld;
let x: Actor;

test.before(async () => {
  app = await startApp();
  w = await orgWorld(app);
  hidden = await orgWorld(app, 'private', w);
  x = await actor(app);
  await orgBlock(app, w.owner, w.org.name, x.username);
});
test.after(async () => {
  await app.close();
});

const check = (org: string, username: string, auth?: string) => app.client(auth).GET('/orgs/{org}/blocks/{username}', orgBlockPath(org, username));

test('204: blocked; 404: not blocked, unknown user', async () => {
  await expectStatus('organizationCheckUserBlock', await check(w.org.name, x.username, w.owner.auth), 204, 'blocked');
  await expectStatus('organizationCheckUserBlock', await check(hidden.org.name, x.username, w.owner.auth), 404, 'another organization');
  await expectStatus('organizationCheckUserBlock', await check(w.org.name, w.member.username, w.owner.auth), 404, 'not blocked');
  await expectStatus('organizationCheckUserBlock', await check(w.org.name, 'nobody-here', w.owner.auth), 404, 'unknown');
});

test('403: not an owner; 404: an invisible organization', async () => {
  await expectStatus('organizationCheckUserBlock', await check(w.org.name, x.username, w.member.auth), 403, 'member');
  await expectStatus('organizationCheckUserBlock', await check(hidden.org.name, x.username, w.outsider.auth), 404, 'private org');
});

test('401 anonymous and wrong credentials; 403 token without read:organization', async () => {
  await expectStatus('organizationCheckUserBlock', await check(w.org.name, x.username), 401, 'anonymous');
  await expect401('organizationCheckUserBlock', (auth) => check(w.org.name, x.username, auth));
  await expectStatus('organizationCheckUserBlock', await check(w.org.name, x.username, await app.token(w.owner, ['read:user'])), 403, 'other scope');
});

test.run();
