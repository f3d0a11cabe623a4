import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { expect401, expectStatus } from '../../helpers/people.js';
import { repoTeamWorld, teamPath, type RepoTeamWorld } from '../../helpers/repoTeams.js';

let app: TestApp;
let w: RepoTeamWorld;

test.before(async () => {
  app = await startApp();
  w = await repoTeamWorld(app);
  const res = await app.client(w.owner.auth).PUT('/repos/{owner}/{repo}/teams/{team}', teamPath(w.org.name, w.open.name, 'readers'));
  assert.is(res.response.status, 204);
});
test.after(async () => {
  await app.close();
});

const check = (repo: string, team: string, auth?: string, owner = w.org.name) => app.client(auth).GET('/repos/{owner}/{repo}/teams/{team}', teamPath(owner, repo, team));

test('200: a team that reaches the repository, with its organization', async () => {
  const res = await check(w.open.name, 'readers', w.member.auth);
  await expectStatus('repoCheckTeam', res, 200, 'given');
  assert.is(res.data!.name, 'readers');
  assert.is(res.data!.organization!.name, w.org.name);
  await expectStatus('repoCheckTeam', await check(w.open.name, 'OWNERS', w.owner.auth), 200, 'every repository, any case');
  await expectStatus('repoCheckTeam', await check(w.secret.name, 'Owners', w.admin.auth), 200, 'admin, private repository');
});

test('404: a team that does not reach it, an unknown team, a team or repository the caller may not see', async () => {
  await expectStatus('repoCheckTeam', await check(w.open.name, 'creators', w.owner.auth), 404, 'not given');
  await expectStatus('repoCheckTeam', await check(w.open.name, 'nope', w.owner.auth), 404, 'unknown team');
  await expectStatus('repoCheckTeam', await check(w.open.name, 'readers', w.outsider.auth), 404, 'a private team to an outsider');
  await expectStatus('repoCheckTeam', await check(w.secret.name, 'Owners', w.outsider.auth), 404, 'a private repository');
  await expectStatus('repoCheckTeam', await check('nope', 'Owners', w.owner.auth), 404, 'unknown repository');
});

test('405: a repository owned by a user', async () => {
  await expectStatus('repoCheckTeam', await check(w.userRepo.name, 'Owners', w.outsider.auth, w.outsider.username), 405, 'user repository');
});

test('401 anonymous and wrong credentials; 403 token without the repository scope', async () => {
  await expectStatus('repoCheckTeam', await check(w.open.name, 'Owners'), 401, 'anonymous');
  await expect401('repoCheckTeam', (auth) => check(w.open.name, 'Owners', auth));
  await expectStatus('repoCheckTeam', await check(w.open.name, 'Owners', await app.token(w.owner, ['read:organization'])), 403, 'scope');
});

test.run();
