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
});
test.after(async () => {
  await app.close();
});

const put = (repo: string, team: string, auth?: string, owner = w.org.name) => app.client(auth).PUT('/repos/{owner}/{repo}/teams/{team}', teamPath(owner, repo, team));
const memberSees = (repo: string) => app.client(w.member.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo } } });

test('204: repository administrators give a team the repository; its members get access at once', async () => {
  assert.is((await memberSees(w.secret.name)).response.status, 404);
  await expectStatus('repoAddTeam', await put(w.secret.name, 'Readers', w.owner.auth), 204, 'org owner, any case');
  assert.is((await memberSees(w.secret.name)).response.status, 200);
  await expectStatus('repoAddTeam', await put(w.open.name, 'readers', w.repoAdmin.auth), 204, 'admin collaborator');
  await expectStatus('repoAddTeam', await put(w.open.name, 'creators', w.admin.auth), 204, 'site admin');
});

test('422: a team that reaches the repository already', async () => {
  const res = await put(w.open.name, 'readers', w.owner.auth);
  await expectStatus('repoAddTeam', res, 422, 'given');
  assert.is(messageOf(res.error), "team 'readers' is already added to repo");
  await expectStatus('repoAddTeam', await put(w.open.name, 'Owners', w.owner.auth), 422, 'every repository');
});

test('403 to who may see but not administer; 404 unknown team or invisible repository; 405 a user\'s repository', async () => {
  const res = await put(w.open.name, 'creators', w.member.auth);
  await expectStatus('repoAddTeam', res, 403, 'reader');
  await expectStatus('repoAddTeam', await put(w.open.name, 'creators', w.outsider.auth), 403, 'outsider on a public repository');
  await expectStatus('repoAddTeam', await put(w.open.name, 'nope', w.owner.auth), 404, 'unknown team');
  await expectStatus('repoAddTeam', await put(w.secret.name, 'creators', w.outsider.auth), 404, 'private repository');
  await expectStatus('repoAddTeam', await put(w.userRepo.name, 'Owners', w.outsider.auth, w.outsider.username), 405, 'user repository');
});

test('401 anonymous and wrong credentials; 403 token without write:repository', async () => {
  await expectStatus('repoAddTeam', await put(w.open.name, 'creators'), 401, 'anonymous');
  await expect401('repoAddTeam', (auth) => put(w.open.name, 'creators', auth));
  await expectStatus('repoAddTeam', await put(w.open.name, 'creators', await app.token(w.owner, ['read:repository'])), 403, 'scope');
});

test.run();
