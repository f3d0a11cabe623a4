import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { users } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, getRepo, messageOf, orgRepo, orgWorld, pathOf, permissionOf, raw, siteAdmin, swaggerOf, userRepo,
  type Actor, type OrgWorld, type Repository,
} from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

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

type Perm = 'read' | 'write' | 'admin' | null;
const put = (repo: Repository, collaborator: string, authorization?: string, permission?: Perm) =>
  app.client(authorization).PUT('/repos/{owner}/{repo}/collaborators/{collaborator}', {
    params: { path: { ...pathOf(repo), collaborator } },
    ...(permission === undefined ? {} : { body: { permission } }),
  });

const flags = {
  read: { admin: false, push: false, pull: true },
  write: { admin: false, push: true, pull: true },
  admin: { admin: true, push: true, pull: true },
};

async function expectAdded(repo: Repository, user: Actor, as: Actor, permission: Perm | undefined, expected: 'read' | 'write' | 'admin') {
  const r = await put(repo, user.username, as.auth, permission);
  assert.is(r.response.status, 204, `${as.username} → ${JSON.stringify(r.error)}`);
  assertSpec('repoAddCollaborator', r);
  assert.is(await r.response.text(), '');
  assert.is(await permissionOf(app, repo, user), expected);
  const seen = await getRepo(app, ...(Object.values(pathOf(repo)) as [string, string]), user.auth);
  assert.is(seen.response.status, 200);
  assert.equal(seen.data!.permissions, flags[expected]);
}

test('204: read, write and admin are granted; repoGetRepoPermissions and repoGet permissions reflect them', async () => {
  const repo = await userRepo(app, alice, { private: true });
  for (const mode of ['read', 'write', 'admin'] as const) {
    const user = await actor(app);
    assert.is((await getRepo(app, alice.username, repo.name, user.auth)).response.status, 404, 'invisible before');
    await expectAdded(repo, user, alice, mode, mode);
  }
});

test('204: permission defaults to write — no body, an empty body, or null', async () => {
  const repo = await userRepo(app, alice, { private: true });
  const [a, b, c] = await Promise.all([actor(app), actor(app), actor(app)]);
  await expectAdded(repo, a, alice, undefined, 'write');
  await expectAdded(repo, b, alice, null, 'write');
  const empty = await raw(app, 'PUT', `/repos/${alice.username}/${repo.name}/collaborators/${c.username}`, { body: '{}', authorization: alice.auth });
  assert.is(empty.response.status, 204);
  assert.is(await permissionOf(app, repo, c), 'write');
});

test('204: an existing collaborator\'s permission is changed, up and down; the name is case-insensitive', async () => {
  const repo = await userRepo(app, alice, { private: true });
  const user = await actor(app);
  await expectAdded(repo, user, alice, 'read', 'read');
  await expectAdded(repo, user, alice, 'admin', 'admin');
  await expectAdded(repo, user, alice, 'read', 'read');
  const upper = await put(repo, user.username.toUpperCase(), alice.auth, 'write');
  assert.is(upper.response.status, 204);
  assert.is(await permissionOf(app, repo, user), 'write');
});

test('204: who may add — owner, admin collaborator, site admin, org owner, admin-team member, the creator of an org repo', async () => {
  const repo = await userRepo(app, alice);
  const repoAdmin = await actor(app);
  await addCollaborator(app, repo, repoAdmin, 'admin');
  for (const as of [alice, repoAdmin, admin]) await expectAdded(repo, await actor(app), as, 'read', 'read');

  const inOrg = await orgRepo(app, w.name, w.creator, { private: true });
  for (const as of [w.owner, w.teamAdmin, w.creator]) await expectAdded(inOrg, await actor(app), as, 'write', 'write');
  // An org member outside the teams that reach the repository can be a collaborator.
  await expectAdded(inOrg, w.member, w.owner, 'read', 'read');
});

test('403: read and write collaborators, read-team members, members in no team, outsiders who can see it', async () => {
  const repo = await userRepo(app, alice);
  const [reader, writer, target] = await Promise.all([actor(app), actor(app), actor(app)]);
  await addCollaborator(app, repo, reader, 'read');
  await addCollaborator(app, repo, writer, 'write');
  const orgPublic = await orgRepo(app, w.name, w.owner);
  const cases: Array<[string, Repository, Actor]> = [
    ['read collaborator', repo, reader],
    ['write collaborator', repo, writer],
    ['outsider, public repository', repo, outsider],
    ['read team member', orgPublic, w.reader],
    ['member in no team', orgPublic, w.member],
    ['creator team member, not their repository', orgPublic, w.creator],
  ];
  for (const [label, target0, as] of cases) {
    const r = await put(target0, target.username, as.auth, 'admin');
    assert.is(r.response.status, 403, label);
    assertSpec('repoAddCollaborator', r);
    assert.equal(r.error, { message: 'user should be an owner or a collaborator with admin write of a repository', url: swaggerOf(app) }, label);
  }
  assert.is(await permissionOf(app, repo, target), 'read', 'public repository: read only, nothing granted');
  const self = await put(repo, writer.username, writer.auth, 'admin');
  assert.is(self.response.status, 403, 'a writer cannot promote themselves');
  assert.is(await permissionOf(app, repo, writer), 'write');
});

test('404: a private repository the caller cannot see, an unknown user, an unknown repository (empty body)', async () => {
  const priv = await userRepo(app, alice, { private: true });
  const user = await actor(app);
  const hidden = await put(priv, user.username, outsider.auth, 'read');
  assert.is(hidden.response.status, 404);
  assertSpec('repoAddCollaborator', hidden);
  assert.is(await hidden.response.text(), '');
  const unknown = await put(priv, 'no-such-user', alice.auth, 'read');
  assert.is(unknown.response.status, 404);
  assertSpec('repoAddCollaborator', unknown);
  const missing = await app.client(alice.auth).PUT('/repos/{owner}/{repo}/collaborators/{collaborator}', {
    params: { path: { owner: alice.username, repo: 'nope', collaborator: user.username } },
  });
  assert.is(missing.response.status, 404);
  assert.is(await permissionOf(app, priv, user), 'none');
});

test('422: the owner, an organization, an inactive or prohibited account; an unknown permission value', async () => {
  const repo = await userRepo(app, alice);
  const own = await put(repo, alice.username, alice.auth, 'admin');
  assert.is(own.response.status, 422);
  assertSpec('repoAddCollaborator', own);
  assert.equal(own.error, { message: 'the owner of a repository cannot be its collaborator', url: swaggerOf(app) });

  const org = await put(repo, w.name, alice.auth, 'read');
  assert.is(org.response.status, 422, 'an organization');
  assertSpec('repoAddCollaborator', org);
  assert.is(messageOf(org.error), 'an organization cannot be a collaborator');
  const orgRepoItself = await orgRepo(app, w.name, w.owner);
  const orgOwner = await put(orgRepoItself, w.name, w.owner.auth, 'read');
  assert.is(orgOwner.response.status, 422, 'the owning organization');

  const db = app.services.deps.db;
  for (const change of [{ isActive: false }, { prohibitLogin: true }]) {
    const user = await actor(app);
    await db.update(users).set(change).where(eq(users.id, user.id));
    const r = await put(repo, user.username, alice.auth, 'read');
    assert.is(r.response.status, 422, JSON.stringify(change));
    assert.is(messageOf(r.error), 'user account is inactive');
  }

  const user = await actor(app);
  for (const permission of ['owner', 'none', 'READ', 7]) {
    const r = await raw(app, 'PUT', `/repos/${alice.username}/${repo.name}/collaborators/${user.username}`, {
      body: JSON.stringify({ permission }), authorization: alice.auth,
    });
    assert.is(r.response.status, 422, String(permission));
    assertSpecAnswer('repoAddCollaborator', 422, r.body);
    assert.match(r.body.message, /permission/);
  }
  assert.is(await permissionOf(app, repo, user), 'read', 'nothing was granted');
});

test('423: an archived repository; un-archived, it works again', async () => {
  const repo = await userRepo(app, alice);
  const user = await actor(app);
  const patch = (archived: boolean) => app.client(alice.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(repo) }, body: { archived } });
  assert.is((await patch(true)).response.status, 200);
  const r = await put(repo, user.username, alice.auth, 'write');
  assert.is(r.response.status, 423);
  assertSpec('repoAddCollaborator', r);
  assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
  assert.is(await permissionOf(app, repo, user), 'read');
  assert.is((await patch(false)).response.status, 200);
  await expectAdded(repo, user, alice, 'write', 'write');
});

test('401: anonymous callers; 403: a token without write:repository', async () => {
  const repo = await userRepo(app, alice);
  const user = await actor(app);
  const anon = await put(repo, user.username, undefined, 'read');
  assert.is(anon.response.status, 401);
  assertSpec('repoAddCollaborator', anon);
  assert.equal(anon.error, { message: 'token is required', url: swaggerOf(app) });
  for (const scopes of [['read:repository'], ['write:organization']]) {
    const r = await put(repo, user.username, await app.token(alice, scopes), 'read');
    assert.is(r.response.status, 403, scopes.join());
    assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:repository]');
  }
  assert.is((await put(repo, user.username, await app.token(alice, ['write:repository']), 'admin')).response.status, 204);
});

test('400: malformed JSON', async () => {
  const repo = await userRepo(app, alice);
  const r = await raw(app, 'PUT', `/repos/${alice.username}/${repo.name}/collaborators/${outsider.username}`, { body: '{"permission"', authorization: alice.auth });
  assert.is(r.response.status, 400);
  assertSpecAnswer('repoAddCollaborator', 400, r.body);
});

test.run();
