import { and, eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { collaborations } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, getRepo, messageOf, orgRepo, orgWorld, pathOf, permissionOf, siteAdmin, swaggerOf, userRepo,
  type Actor, type OrgWorld, type Repository,
} from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let admin: Actor;
let alice: Actor;
let outsider: Actor;
let w: OrgWorld;

test.before(async () => {
  app = await startApp();
  admin = await siteAdmin(app);
  [alice, outsider] = await Promise.all([actor(app), actor(app)]);
  w = await orgWorld(app);
});
test.after(async () => {
  await app.close();
});

const del = (repo: Repository, collaborator: string, authorization?: string) =>
  app.client(authorization).DELETE('/repos/{owner}/{repo}/collaborators/{collaborator}', { params: { path: { ...pathOf(repo), collaborator } } });

async function collabRow(repo: Repository, user: Actor) {
  const db = app.services.deps.db;
  return (await db.select().from(collaborations).where(and(eq(collaborations.repoId, repo.id), eq(collaborations.userId, user.id))))[0];
}

async function expectRemoved(repo: Repository, user: Actor, as: Actor, after: string) {
  const r = await del(repo, user.username, as.auth);
  assert.is(r.response.status, 204, `${as.username}: ${JSON.stringify(r.error)}`);
  assertSpec('repoDeleteCollaborator', r);
  assert.is(await r.response.text(), '');
  assert.is(await collabRow(repo, user), undefined, 'the row is gone');
  assert.is(await permissionOf(app, repo, user), after);
}

test('204: the collaborator loses access — private repository 404, public repository read', async () => {
  const priv = await userRepo(app, alice, { private: true });
  const user = await actor(app);
  await addCollaborator(app, priv, user, 'write');
  assert.is((await getRepo(app, alice.username, priv.name, user.auth)).response.status, 200);
  await expectRemoved(priv, user, alice, 'none');
  assert.is((await getRepo(app, alice.username, priv.name, user.auth)).response.status, 404);

  const pub = await userRepo(app, alice);
  await addCollaborator(app, pub, user, 'admin');
  await expectRemoved(pub, user, alice, 'read');
  assert.equal((await getRepo(app, alice.username, pub.name, user.auth)).data!.permissions, { admin: false, push: false, pull: true });
});

test('204: access through a team is unaffected', async () => {
  const repo = await orgRepo(app, w.name, w.owner, { private: true });
  await addCollaborator(app, repo, w.reader, 'admin');
  assert.is(await permissionOf(app, repo, w.reader), 'admin');
  await expectRemoved(repo, w.reader, w.owner, 'read');
  assert.is((await getRepo(app, w.name, repo.name, w.reader.auth)).response.status, 200, 'the team still reaches it');
});

test('204: who may remove — owner, admin collaborator (themselves too), site admin, org owner, admin-team member', async () => {
  const repo = await userRepo(app, alice, { private: true });
  const repoAdmin = await actor(app);
  await addCollaborator(app, repo, repoAdmin, 'admin');
  for (const as of [alice, repoAdmin, admin]) {
    const user = await actor(app);
    await addCollaborator(app, repo, user, 'read');
    await expectRemoved(repo, user, as, 'none');
  }
  await expectRemoved(repo, repoAdmin, repoAdmin, 'none');
  assert.is((await getRepo(app, alice.username, repo.name, repoAdmin.auth)).response.status, 404);

  const inOrg = await orgRepo(app, w.name, w.owner, { private: true });
  for (const as of [w.owner, w.teamAdmin]) {
    const user = await actor(app);
    await addCollaborator(app, inOrg, user, 'write');
    await expectRemoved(inOrg, user, as, 'none');
  }
});

test('403: read and write collaborators (themselves too), team members without admin, members, outsiders', async () => {
  const repo = await userRepo(app, alice);
  const [reader, writer, victim] = await Promise.all([actor(app), actor(app), actor(app)]);
  await addCollaborator(app, repo, reader, 'read');
  await addCollaborator(app, repo, writer, 'write');
  await addCollaborator(app, repo, victim, 'write');
  const orgPublic = await orgRepo(app, w.name, w.owner);
  await addCollaborator(app, orgPublic, victim, 'write');
  const cases: Array<[string, Repository, Actor, Actor]> = [
    ['read collaborator', repo, reader, victim],
    ['write collaborator', repo, writer, victim],
    ['write collaborator, themselves', repo, writer, writer],
    ['outsider, public repository', repo, outsider, victim],
    ['read team member', orgPublic, w.reader, victim],
    ['member in no team', orgPublic, w.member, victim],
    ['creator team member', orgPublic, w.creator, victim],
  ];
  for (const [label, target, as, user] of cases) {
    const r = await del(target, user.username, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('repoDeleteCollaborator', r);
    assert.equal(r.error, { message: 'user should be an owner or a collaborator with admin write of a repository', url: swaggerOf(app) }, label);
  }
  assert.is((await collabRow(repo, victim))?.accessMode, 'write');
  assert.is((await collabRow(repo, writer))?.accessMode, 'write');
  assert.is((await collabRow(orgPublic, victim))?.accessMode, 'write');
});

test('404: an unknown user, a user who is not a collaborator, the owner, an invisible or unknown repository (empty body)', async () => {
  const priv = await userRepo(app, alice, { private: true });
  const user = await actor(app);
  for (const [label, name] of [['unknown user', 'nobody-here'], ['not a collaborator', user.username], ['the owner', alice.username], ['an organization', w.name]]) {
    const r = await del(priv, name!, alice.auth);
    assert.is(r.response.status, 404, label);
    assertSpec('repoDeleteCollaborator', r);
    assert.is(await r.response.text(), '', label);
  }
  await addCollaborator(app, priv, user, 'read');
  const hidden = await del(priv, user.username, outsider.auth);
  assert.is(hidden.response.status, 404, 'the caller cannot see the repository');
  assert.is((await collabRow(priv, user))?.accessMode, 'read');
  const gone = await app.client(alice.auth).DELETE('/repos/{owner}/{repo}/collaborators/{collaborator}', {
    params: { path: { owner: alice.username, repo: 'nope', collaborator: user.username } },
  });
  assert.is(gone.response.status, 404);
  await expectRemoved(priv, user, alice, 'none');
  assert.is((await del(priv, user.username, alice.auth)).response.status, 404, 'a second removal is 404');
});

test('423: an archived repository keeps its collaborators', async () => {
  const repo = await userRepo(app, alice);
  const user = await actor(app);
  await addCollaborator(app, repo, user, 'write');
  const patch = (archived: boolean) => app.client(alice.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(repo) }, body: { archived } });
  assert.is((await patch(true)).response.status, 200);
  const r = await del(repo, user.username, alice.auth);
  assert.is(r.response.status, 423);
  assertSpec('repoDeleteCollaborator', r);
  assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
  assert.is(await permissionOf(app, repo, user), 'write');
  assert.is((await patch(false)).response.status, 200);
  await expectRemoved(repo, user, alice, 'read');
});

test('401: anonymous callers; 403: a token without write:repository', async () => {
  const repo = await userRepo(app, alice);
  const user = await actor(app);
  await addCollaborator(app, repo, user, 'write');
  const anon = await del(repo, user.username);
  assert.is(anon.response.status, 401);
  assertSpec('repoDeleteCollaborator', anon);
  assert.equal(anon.error, { message: 'token is required', url: swaggerOf(app) });
  for (const scopes of [['read:repository'], ['write:user']]) {
    const r = await del(repo, user.username, await app.token(alice, scopes));
    assert.is(r.response.status, 403, scopes.join());
    assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:repository]');
  }
  assert.is((await collabRow(repo, user))?.accessMode, 'write');
  assert.is((await del(repo, user.username, await app.token(alice, ['write:repository']))).response.status, 204);
});

test.run();
