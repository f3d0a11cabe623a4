import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, messageOf, orgRepo, orgWorld, pathOf, raw, rowOf, siteAdmin, swaggerOf, userRepo,
  type Actor, type OrgWorld, type Repository,
} from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let admin: Actor;
let alice: Actor;
let outsider: Actor;
let restricted: Actor;
let collab: Record<'read' | 'write' | 'admin', Actor>;
let w: OrgWorld;
let pub: Repository;
let priv: Repository;
let orgPriv: Repository;
let orgPub: Repository;

test.before(async () => {
  app = await startApp();
  admin = await siteAdmin(app);
  const [a, o, r, cr, cw, ca] = await Promise.all([actor(app), actor(app), actor(app, { restricted: true }), actor(app), actor(app), actor(app)]);
  [alice, outsider, restricted] = [a, o, r];
  collab = { read: cr, write: cw, admin: ca };
  w = await orgWorld(app);
  pub = await userRepo(app, alice);
  priv = await userRepo(app, alice, { private: true });
  orgPub = await orgRepo(app, w.name, w.owner);
  orgPriv = await orgRepo(app, w.name, w.owner, { private: true });
  for (const repo of [pub, priv, orgPriv]) {
    for (const mode of ['read', 'write', 'admin'] as const) await addCollaborator(app, repo, collab[mode], mode);
  }
});
test.after(async () => {
  await app.close();
});

const ask = (repo: Repository, collaborator: string, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/collaborators/{collaborator}/permission', { params: { path: { ...pathOf(repo), collaborator } } });

async function expectPermission(repo: Repository, user: Actor | string, as: Actor, expected: string, label: string) {
  const name = typeof user === 'string' ? user : user.username;
  const r = await ask(repo, name, as.auth);
  assert.is(r.response.status, 200, `${label}: ${JSON.stringify(r.error)}`);
  assertSpec('repoGetRepoPermissions', r);
  assert.is(r.data!.permission, expected, label);
  assert.is(r.data!.role_name, expected, `${label}: role_name`);
  return r.data!;
}

test('200: the answer carries permission, role_name and the user', async () => {
  const body = await expectPermission(priv, collab.write, alice, 'write', 'write collaborator');
  assert.is(body.user.id, collab.write.id);
  assert.is(body.user.login, collab.write.username);
  assert.is(body.user.email, `${collab.write.username}@${app.config.noReplyDomain}`, 'the owner sees the no-reply address');
  const self = await expectPermission(priv, collab.write, collab.write, 'write', 'themselves');
  assert.is(self.user.email, collab.write.email, 'a user sees their own e-mail');
  const byAdmin = await expectPermission(priv, collab.write, admin, 'write', 'site admin');
  assert.is(byAdmin.user.email, collab.write.email);
});

test('200: the access mode of every kind of grant, as a site admin asks', async () => {
  const cases: Array<[Repository, Actor | string, string, string]> = [
    [priv, alice, 'owner', 'owner'],
    [priv, app.admin.username, 'owner', 'site admin'],
    [priv, collab.read, 'read', 'read collaborator'],
    [priv, collab.admin, 'admin', 'admin collaborator'],
    [priv, outsider, 'none', 'private, nothing granted'],
    [pub, outsider, 'read', 'public, nothing granted'],
    [pub, restricted, 'none', 'public, restricted user'],
    [orgPriv, w.owner, 'owner', 'org owner'],
    [orgPriv, w.teamAdmin, 'admin', 'admin team'],
    [orgPriv, w.reader, 'read', 'read team'],
    [orgPriv, w.member, 'none', 'member in no team'],
    [orgPriv, w.creator, 'none', 'creator team without the repository'],
    [orgPriv, collab.write, 'write', 'write collaborator on an org repository'],
    [orgPub, w.member, 'read', 'public org repository, member in no team'],
  ];
  for (const [repo, user, expected, label] of cases) await expectPermission(repo, user, admin, expected, label);
});

test('200: the highest grant wins — a read-team member who is also an admin collaborator', async () => {
  const repo = await orgRepo(app, w.name, w.owner, { private: true });
  await addCollaborator(app, repo, w.reader, 'admin');
  await expectPermission(repo, w.reader, admin, 'admin', 'team read + collaborator admin');
  await addCollaborator(app, repo, w.teamAdmin, 'read');
  await expectPermission(repo, w.teamAdmin, admin, 'admin', 'team admin + collaborator read');
});

test('200: repository admins ask about anyone; others only about themselves, in any case', async () => {
  for (const as of [alice, collab.admin]) {
    await expectPermission(priv, collab.read, as, 'read', `${as.username} asks about a reader`);
    await expectPermission(priv, outsider, as, 'none', `${as.username} asks about an outsider`);
  }
  for (const as of [w.owner, w.teamAdmin]) await expectPermission(orgPriv, w.reader, as, 'read', `${as.username} on the org repository`);
  await expectPermission(priv, collab.read.username.toUpperCase(), collab.read, 'read', 'themselves, upper case');
  await expectPermission(pub, outsider, outsider, 'read', 'an outsider about themselves on a public repository');
  await expectPermission(orgPriv, w.reader, w.reader, 'read', 'a team member about themselves');
});

test('403: non-admins asking about someone else', async () => {
  const cases: Array<[string, Repository, Actor, Actor]> = [
    ['read collaborator', priv, collab.read, collab.write],
    ['write collaborator', priv, collab.write, alice],
    ['outsider on a public repository', pub, outsider, collab.read],
    ['read team member', orgPriv, w.reader, w.teamAdmin],
  ];
  for (const [label, repo, as, about] of cases) {
    const r = await ask(repo, about.username, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('repoGetRepoPermissions', r);
    assert.equal(r.error, {
      message: 'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own',
      url: swaggerOf(app),
    }, label);
  }
});

test('404: a repository the caller cannot see, an unknown user, an unknown repository (empty body)', async () => {
  const cases: Array<[string, Repository, string, Actor]> = [
    ['outsider, private repository, about themselves', priv, outsider.username, outsider],
    ['member in no team, private org repository', orgPriv, w.member.username, w.member],
    ['restricted user, public repository', pub, restricted.username, restricted],
    ['unknown user, asked by the site admin', priv, 'no-such-user', admin],
    ['unknown user, asked by the owner', priv, 'no-such-user', alice],
  ];
  for (const [label, repo, name, as] of cases) {
    const r = await ask(repo, name, as.auth);
    assert.is(r.response.status, 404, label);
    assertSpec('repoGetRepoPermissions', r);
    assert.is(await r.response.text(), '', label);
  }
  const missing = await app.client(admin.auth).GET('/repos/{owner}/{repo}/collaborators/{collaborator}/permission', {
    params: { path: { owner: alice.username, repo: 'nope', collaborator: alice.username } },
  });
  assert.is(missing.response.status, 404);
});

test('401: anonymous callers, even on a public repository; 403: a token without read:repository', async () => {
  const anon = await ask(pub, alice.username);
  assert.is(anon.response.status, 401);
  assertSpec('repoGetRepoPermissions', anon);
  assert.equal(anon.error, { message: 'token is required', url: swaggerOf(app) });
  for (const scopes of [['read:user'], ['write:organization']]) {
    const r = await ask(pub, alice.username, await app.token(alice, scopes));
    assert.is(r.response.status, 403, scopes.join());
    assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [read:repository]');
  }
  const ok = await ask(pub, alice.username, await app.token(alice, ['read:repository']));
  assert.is(ok.response.status, 200);
  assert.is(ok.data!.permission, 'owner');
  const viaBasic = await ask(priv, alice.username, alice.basic);
  assert.is(viaBasic.response.status, 200);
});

test('a permission change shows at once: collaborator added, changed, removed; team membership', async () => {
  const repo = await userRepo(app, alice, { private: true });
  const user = await actor(app);
  await expectPermission(repo, user, alice, 'none', 'before');
  await addCollaborator(app, repo, user, 'read');
  await expectPermission(repo, user, user, 'read', 'added');
  await addCollaborator(app, repo, user, 'admin');
  await expectPermission(repo, user, user, 'admin', 'changed');
  const del = await app.client(alice.auth).DELETE('/repos/{owner}/{repo}/collaborators/{collaborator}', { params: { path: { ...pathOf(repo), collaborator: user.username } } });
  assert.is(del.response.status, 204);
  await expectPermission(repo, user, alice, 'none', 'removed');

  const joiner = await actor(app);
  await expectPermission(orgPriv, joiner, admin, 'none', 'not in the org');
  await app.services.teams.addMember(w.teams.admins, { user: await rowOf(app, w.owner), isMember: true, isOwner: true }, await rowOf(app, joiner));
  await expectPermission(orgPriv, joiner, joiner, 'admin', 'joined the admin team');
});

test('422: a NUL character in the user name', async () => {
  const r = await raw(app, 'GET', `/repos/${alice.username}/${pub.name}/collaborators/a%00b/permission`, { authorization: alice.auth });
  assert.is(r.response.status, 422);
});

test.run();
