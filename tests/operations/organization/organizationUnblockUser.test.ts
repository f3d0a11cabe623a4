import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { noneRefused, orgBlock, orgBlockPath, refusals } from '../../helpers/blocks.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, createOrgRepo, messageOf, orgWorld, type OrgWorld } from '../../helpers/orgs.js';
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

const del = (org: string, username: string, auth?: string) => app.client(auth).DELETE('/orgs/{org}/blocks/{username}', orgBlockPath(org, username));

test('204: the user is no longer refused around the organization', async () => {
  const x = await actor(app);
  const repo = await createOrgRepo(app, w.owner, w.org.name);
  await orgBlock(app, w.owner, w.org.name, x.username);
  await expectStatus('organizationUnblockUser', await del(w.org.name, x.username, w.owner.auth), 204, 'owner');
  assert.equal(await refusals(app, x, repo, w.owner), noneRefused);
});

test('400: a user not blocked, the organization', async () => {
  const x = await actor(app);
  const res = await del(w.org.name, x.username, w.owner.auth);
  await expectStatus('organizationUnblockUser', res, 400, 'not blocked');
  assert.is(messageOf(res.error), 'cannot unblock the user');
  await expectStatus('organizationUnblockUser', await del(w.org.name, w.org.name, w.owner.auth), 400, 'the organization');
});

test('403: not an owner; 404: an invisible organization or an unknown user', async () => {
  const x = await actor(app);
  await orgBlock(app, w.owner, w.org.name, x.username);
  await expectStatus('organizationUnblockUser', await del(w.org.name, x.username, w.member.auth), 403, 'member');
  await expectStatus('organizationUnblockUser', await del(hidden.org.name, x.username, w.outsider.auth), 404, 'private org');
  await expectStatus('organizationUnblockUser', await del(w.org.name, 'nobody-here', w.owner.auth), 404, 'unknown user');
});

test('401 anonymous and wrong credentials; 403 token without write:organization', async () => {
  const x = await actor(app);
  await orgBlock(app, w.owner, w.org.name, x.username);
  await expectStatus('organizationUnblockUser', await del(w.org.name, x.username), 401, 'anonymous');
  await expect401('organizationUnblockUser', (auth) => del(w.org.name, x.username, auth));
  await expectStatus('organizationUnblockUser', await del(w.org.name, x.username, await app.token(w.owner, ['read:organization'])), 403, 'read scope');
});

test.run();
