import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { adminActor, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

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

const get = (id: number, username: string, auth?: string) => app.client(auth).GET('/teams/{id}/members/{username}', { params: { path: { id, username } } });

test('200: a member of the team, to those who may see the team', async () => {
  for (const [label, a] of [['owner', w.owner], ['team member', w.member], ['admin', admin]] as const) {
    const res = await get(w.readers.id, w.member.username, a.auth);
    await expectStatus('orgListTeamMember', res, 200, label);
    assert.is(res.data!.login, w.member.username);
  }
  const owner = await get(w.owners.id, w.owner.username, w.owner.auth);
  assert.is(owner.data!.id, w.owner.id);
});

test('404: not in the team, unknown user, unknown team, a team the caller may not see', async () => {
  await expectStatus('orgListTeamMember', await get(w.readers.id, w.creator.username, w.owner.auth), 404, 'in another team');
  await expectStatus('orgListTeamMember', await get(w.readers.id, w.outsider.username, w.owner.auth), 404, 'outsider');
  await expectStatus('orgListTeamMember', await get(w.readers.id, 'nobody-here', w.owner.auth), 404, 'unknown user');
  await expectStatus('orgListTeamMember', await get(987654, w.member.username, admin.auth), 404, 'unknown team');
  await expectStatus('orgListTeamMember', await get(w.readers.id, w.member.username, w.outsider.auth), 404, 'private team to an outsider');
  await expectStatus('orgListTeamMember', await get(w.readers.id, w.member.username, w.creator.auth), 404, 'private team to another member');
});

test('401 anonymous and wrong credentials; 403 token without the organization scope', async () => {
  await expectStatus('orgListTeamMember', await get(w.readers.id, w.member.username), 401, 'anonymous');
  await expect401('orgListTeamMember', (auth) => get(w.readers.id, w.member.username, auth));
  await expectStatus('orgListTeamMember', await get(w.readers.id, w.member.username, await app.token(w.owner, ['read:user'])), 403, 'scope');
});

test.run();
