import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createTeam, type Actor, type Team } from '../../helpers/orgs.js';
import { expect401, expectList, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';
import { pathOf, userRepo, type Repository } from '../../helpers/repos.js';

let app: TestApp;
let w: PeopleWorld;
let admin: Actor;
/** Public team with every repository; limited team given the open repository; private team given nothing. */
let everything: Team;
let given: Team;
let admins: Actor;

test.before(async () => {
  app = await startApp();
  [w, admin] = await Promise.all([peopleWorld(app), adminActor(app)]);
  everything = await createTeam(app, w.owner, w.org.name, { name: 'everything', visibility: 'public', includes_all_repositories: true });
  given = await createTeam(app, w.owner, w.org.name, { name: 'given', visibility: 'limited', permission: 'admin' });
  admins = await actor(app);
  await addTeamMember(app, w.owner, given.id, admins.username);
  const put = await app.client(w.owner.auth).PUT('/teams/{id}/repos/{org}/{repo}', { params: { path: { id: given.id, org: w.org.name, repo: w.open.name } } });
  assert.is(put.response.status, 204);
});
test.after(async () => {
  await app.close();
});

const list = (repo: Repository | { full_name: string }, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/teams', { params: { path: pathOf(repo as Repository) } });
const byName = (t: Team) => t.name;

test('200: the teams that reach the repository, by name, as org owners see them', async () => {
  const items = expectList<Team>('repoListTeams', await list(w.open, w.owner.auth), byName, ['everything', 'given', 'Owners'], 'owner');
  assert.is(items[0]!.organization, null, 'organization is null, as in Gitea');
  assert.equal(items[1]!.units_map['repo.code'], 'admin');
  expectList<Team>('repoListTeams', await list(w.secret, admin.auth), byName, ['everything', 'Owners'], 'admin, private repository');
});

test('200: teams the caller may not see are left out', async () => {
  // An outsider sees the public team only; a member of the org the limited one too; a team member its own team.
  expectList<Team>('repoListTeams', await list(w.open, w.outsider.auth), byName, ['everything'], 'outsider');
  expectList<Team>('repoListTeams', await list(w.open, w.member.auth), byName, ['everything', 'given'], 'org member');
  expectList<Team>('repoListTeams', await list(w.open, admins.auth), byName, ['everything', 'given'], 'team member');
});

test('405: a repository owned by a user', async () => {
  const repo = await userRepo(app, w.outsider);
  const res = await list(repo, w.outsider.auth);
  await expectStatus('repoListTeams', res, 405, 'user repository');
  assert.is((res.error as { message: string }).message, 'repo is not owned by an organization');
});

test('404: a private repository to outsiders, an unknown repository', async () => {
  await expectStatus('repoListTeams', await list(w.secret, w.outsider.auth), 404, 'outsider');
  await expectStatus('repoListTeams', await list({ full_name: `${w.org.name}/nope` }, w.owner.auth), 404, 'unknown');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('repoListTeams', await list(w.open), 401, 'anonymous');
  await expect401('repoListTeams', (auth) => list(w.open, auth));
});

test.run();
