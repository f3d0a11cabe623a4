import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { adminActor, createOrg, createOrgRepo, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

let app: TestApp;
let w: PeopleWorld;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  [w, admin] = await Promise.all([peopleWorld(app), adminActor(app)]);
  const res = await app.client(w.owner.auth).PUT('/teams/{id}/repos/{org}/{repo}', { params: { path: { id: w.readers.id, org: w.org.name, repo: w.open.name } } });
  assert.is(res.response.status, 204);
});
test.after(async () => {
  await app.close();
});

const get = (id: number, repo: string, auth?: string, org = w.org.name) =>
  app.client(auth).GET('/teams/{id}/repos/{org}/{repo}', { params: { path: { id, org, repo } } });

test('200: a repository the team was given, or any with includes_all_repositories, with the caller\'s permissions', async () => {
  const given = await get(w.readers.id, w.open.name, w.member.auth);
  await expectStatus('orgListTeamRepo', given, 200, 'given');
  assert.is(given.data!.full_name, `${w.org.name}/${w.open.name}`);
  assert.equal(given.data!.permissions, { admin: false, push: false, pull: true });
  const all = await get(w.owners.id, w.secret.name, w.owner.auth);
  await expectStatus('orgListTeamRepo', all, 200, 'Owners reach every repository');
  assert.is(all.data!.permissions!.admin, true);
  await expectStatus('orgListTeamRepo', await get(w.readers.id, w.open.name.toUpperCase(), admin.auth), 200, 'admin, any case');
});

test('404: a repository the team lacks, one the caller cannot see, another organization\'s, unknown ones', async () => {
  await expectStatus('orgListTeamRepo', await get(w.creators.id, w.open.name, w.creator.auth), 404, 'not given');
  await expectStatus('orgListTeamRepo', await get(w.readers.id, w.secret.name, w.member.auth), 404, 'invisible to the caller');
  const other = await createOrg(app, w.owner);
  const elsewhere = await createOrgRepo(app, w.owner, other.name);
  await expectStatus('orgListTeamRepo', await get(w.owners.id, elsewhere.name, w.owner.auth, other.name), 404, 'another organization');
  await expectStatus('orgListTeamRepo', await get(w.readers.id, 'nope', w.owner.auth), 404, 'unknown repository');
  await expectStatus('orgListTeamRepo', await get(987654, w.open.name, admin.auth), 404, 'unknown team');
  await expectStatus('orgListTeamRepo', await get(w.readers.id, w.open.name, w.outsider.auth), 404, 'private team to an outsider');
});

test('401 anonymous and wrong credentials; 403 token without the organization scope', async () => {
  await expectStatus('orgListTeamRepo', await get(w.readers.id, w.open.name), 401, 'anonymous');
  await expect401('orgListTeamRepo', (auth) => get(w.readers.id, w.open.name, auth));
  await expectStatus('orgListTeamRepo', await get(w.readers.id, w.open.name, await app.token(w.member, ['read:repository'])), 403, 'scope');
});

test.run();
