import { test } from 'uvu';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';
import { addCollaborator, pathOf, userRepo, type Repository } from '../../helpers/repos.js';

let app: TestApp;
let owner: Actor;
let collaborator: Actor;
let outsider: Actor;
let admin: Actor;
let secret: Repository;
let w: PeopleWorld;

test.before(async () => {
  app = await startApp();
  [owner, collaborator, outsider, admin] = await Promise.all([actor(app), actor(app), actor(app), adminActor(app)]);
  secret = await userRepo(app, owner, { private: true });
  await addCollaborator(app, secret, collaborator, 'read');
  w = await peopleWorld(app, 'public', { owner, member: collaborator, creator: admin, outsider });
});
test.after(async () => {
  await app.close();
});

const check = (repo: Repository | { full_name: string }, collaboratorName: string, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/collaborators/{collaborator}', { params: { path: { ...pathOf(repo as Repository), collaborator: collaboratorName } } });

test('204: a collaborator, asked by the owner, the collaborator and site admins', async () => {
  for (const [label, a] of [['owner', owner], ['collaborator', collaborator], ['admin', admin]] as const) {
    await expectStatus('repoCheckCollaborator', await check(secret, collaborator.username, a.auth), 204, label);
  }
  await expectStatus('repoCheckCollaborator', await check(secret, collaborator.username.toUpperCase(), owner.auth), 204, 'case-insensitive');
});

test('404: the owner, a team member and other users are no collaborators', async () => {
  await expectStatus('repoCheckCollaborator', await check(secret, owner.username, owner.auth), 404, 'owner');
  await expectStatus('repoCheckCollaborator', await check(secret, outsider.username, owner.auth), 404, 'outsider');
  // Owner of the org through the Owners team: access, but no collaboration.
  await expectStatus('repoCheckCollaborator', await check(w.secret, owner.username, owner.auth), 404, 'org owner');
});

test('404: an unknown user, a repository the caller cannot see', async () => {
  await expectStatus('repoCheckCollaborator', await check(secret, 'nobody-here', owner.auth), 404, 'unknown user');
  await expectStatus('repoCheckCollaborator', await check(secret, collaborator.username, outsider.auth), 404, 'invisible repository');
  await expectStatus('repoCheckCollaborator', await check({ full_name: `${owner.username}/nope` }, collaborator.username, owner.auth), 404, 'unknown repository');
});

test('401: anonymous callers and wrong credentials', async () => {
  await expectStatus('repoCheckCollaborator', await check(w.open, owner.username), 401, 'anonymous');
  await expect401('repoCheckCollaborator', (auth) => check(secret, collaborator.username, auth));
});

test.run();
