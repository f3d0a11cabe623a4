import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { messageOf } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';
import { repoTeamWorld, teamPath, type RepoTeamWorld } from '../../helpers/repoTeams.js';

let app: TestApp;
let w: RepoTeamWorld;

test.before(async () => {
  app = await startApp();
  w = await repoTeamWorld(app);
  for (const [repo, team] of [[w.secret.name, 'readers'], [w.open.name, 'readers'], [w.open.name, 'creators']] as const) {
    assert.is((await app.client(w.owner.auth).PUT('/repos/{owner}/{repo}/teams/{team}', teamPath(w.org.name, repo, team))).response.status, 204);
  }
});
test.after(async () => {
  await app.close();
});

const del = (repo: string, team: string, auth?: string, owner = w.org.name) => app.client(auth).DELETE('/repos/{owner}/{repo}/teams/{team}', teamPath(owner, repo, team));
const memberSees = (repo: string) => app.client(w.member.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo } } });

test('204: repository administrators take the repository from a team; its members lose access at once', async () => {
  assert.is((await memberSees(w.secret.name)).response.status, 200);
  await expectStatus('repoDeleteTeam', await del(w.secret.name, 'READERS', w.owner.auth), 204, 'org owner');
  assert.is((await memberSees(w.secret.name)).response.status, 404);
  await expectStatus('repoDeleteTeam', await del(w.open.name, 'readers', w.repoAdmin.auth), 204, 'admin collaborator');
  await expectStatus('repoDeleteTeam', await del(w.open.name, 'creators', w.admin.auth), 204, 'site admin');
});

test('422: a team that does not have the repository, or has every repository', async () => {
  const res = await del(w.open.name, 'readers', w.owner.auth);
  await expectStatus('repoDeleteTeam', res, 422, 'not given');
  assert.is(messageOf(res.error), "team 'readers' was not added to repo");
  await expectStatus('repoDeleteTeam', await del(w.open.name, 'Owners', w.owner.auth), 422, 'every repository');
});

test('403 to who may see but not administer; 404 unknown team or invisible repository; 405 a user\'s repository', async () => {
  await expectStatus('repoDeleteTeam', await del(w.open.name, 'Owners', w.member.auth), 403, 'reader');
  await expectStatus('repoDeleteTeam', await del(w.open.name, 'nope', w.owner.auth), 404, 'unknown team');
  await expectStatus('repoDeleteTeam', await del(w.secret.name, 'Owners', w.outsider.auth), 404, 'private repository');
  await expectStatus('repoDeleteTeam', await del(w.userRepo.name, 'Owners', w.outsider.auth, w.outsider.username), 405, 'user repository');
});

test('401 anonymous and wrong credentials; 403 token without write:repository', async () => {
  await expectStatus('repoDeleteTeam', await del(w.open.name, 'Owners'), 401, 'anonymous');
  await expect401('repoDeleteTeam', (auth) => del(w.open.name, 'Owners', auth));
  await expectStatus('repoDeleteTeam', await del(w.open.name, 'Owners', await app.token(w.owner, ['read:repository'])), 403, 'scope');
});

test.run();
