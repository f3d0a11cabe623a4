import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { basic, startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, fresh, getRepo, orgRepo, orgWorld, pathOf, rowOf, siteAdmin, swaggerOf, userRepo,
  type Actor, type OrgWorld, type Repository,
} from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let admin: Actor;
let alice: Actor; // owns the user repositories
let outsider: Actor;
let restricted: Actor;
let collab: Record<'read' | 'write' | 'admin', Actor>;
let w: OrgWorld;
let pub: Repository;
let priv: Repository;
let orgPub: Repository;
let orgPriv: Repository;

test.before(async () => {
  app = await startApp();
  admin = await siteAdmin(app);
  const [a, o, r, cr, cw, ca] = await Promise.all([actor(app), actor(app), actor(app, { restricted: true }), actor(app), actor(app), actor(app)]);
  [alice, outsider, restricted] = [a, o, r];
  collab = { read: cr, write: cw, admin: ca };
  w = await orgWorld(app);
  pub = await userRepo(app, alice, { description: 'public one' });
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

const none = { admin: false, push: false, pull: false };
const read = { admin: false, push: false, pull: true };
const write = { admin: false, push: true, pull: true };
const all = { admin: true, push: true, pull: true };

async function expectSeen(repo: Repository, auth: string | undefined, permissions: typeof all, label: string) {
  const { owner, repo: name } = pathOf(repo);
  const r = await getRepo(app, owner, name, auth);
  assert.is(r.response.status, 200, label);
  assertSpec('repoGet', r);
  assert.is(r.data!.id, repo.id, label);
  assert.equal(r.data!.permissions, permissions, label);
  return r.data!;
}

async function expectHidden(repo: Repository, auth: string | undefined, label: string) {
  const { owner, repo: name } = pathOf(repo);
  const r = await getRepo(app, owner, name, auth);
  assert.is(r.response.status, 404, label);
  assertSpec('repoGet', r);
  assert.is(await r.response.text(), '', `${label}: empty body`);
}

test('200: a public repository of a public user — anonymous and everyone reads it, with their own permissions', async () => {
  const anon = await expectSeen(pub, undefined, read, 'anonymous');
  assert.is(anon.full_name, `${alice.username}/${pub.name}`);
  assert.is(anon.description, 'public one');
  assert.is(anon.owner!.email, `${alice.username}@${app.config.noReplyDomain}`, 'others see the no-reply address');
  await expectSeen(pub, outsider.auth, read, 'outsider');
  await expectSeen(pub, collab.read.auth, read, 'read collaborator');
  await expectSeen(pub, collab.write.auth, write, 'write collaborator');
  await expectSeen(pub, collab.admin.auth, all, 'admin collaborator');
  const own = await expectSeen(pub, alice.auth, all, 'owner');
  assert.is(own.owner!.email, alice.email, 'the owner sees their e-mail');
  const byAdmin = await expectSeen(pub, admin.auth, all, 'site admin');
  assert.is(byAdmin.owner!.email, alice.email, 'a site admin sees the e-mail');
  assert.equal({ ...own, permissions: null, owner: null }, { ...anon, permissions: null, owner: null }, 'the same repository for everyone');
});

test('404: a private repository is invisible to anonymous callers, outsiders and restricted users; collaborators see it', async () => {
  await expectHidden(priv, undefined, 'anonymous');
  await expectHidden(priv, outsider.auth, 'outsider');
  await expectHidden(priv, restricted.auth, 'restricted user');
  await expectSeen(priv, collab.read.auth, read, 'read collaborator');
  await expectSeen(priv, collab.write.auth, write, 'write collaborator');
  await expectSeen(priv, collab.admin.auth, all, 'admin collaborator');
  await expectSeen(priv, alice.auth, all, 'owner');
  const seen = await expectSeen(priv, admin.auth, all, 'site admin');
  assert.is(seen.private, true);
});

test('restricted users see only what they are granted', async () => {
  await expectHidden(pub, restricted.auth, 'a public repository is not enough');
  const granted = await userRepo(app, alice);
  await addCollaborator(app, granted, restricted, 'read');
  await expectSeen(granted, restricted.auth, read, 'granted as collaborator');
});

test('organization repositories: org owner, team members, members in no team, outsiders', async () => {
  await expectSeen(orgPub, undefined, read, 'public: anonymous');
  await expectSeen(orgPub, outsider.auth, read, 'public: outsider');
  await expectSeen(orgPub, w.member.auth, read, 'public: member in no team');
  await expectSeen(orgPub, w.creator.auth, read, 'public: creator team (no access of its own)');
  await expectSeen(orgPub, w.reader.auth, read, 'public: read team');
  await expectSeen(orgPub, w.teamAdmin.auth, all, 'public: admin team');
  const byOwner = await expectSeen(orgPub, w.owner.auth, all, 'public: org owner');
  assert.is(byOwner.owner!.type, 'Organization');
  assert.is(byOwner.owner!.login, w.name);

  await expectHidden(orgPriv, undefined, 'private: anonymous');
  await expectHidden(orgPriv, outsider.auth, 'private: outsider');
  await expectHidden(orgPriv, w.member.auth, 'private: member in no team');
  await expectHidden(orgPriv, w.creator.auth, 'private: creator team without this repository');
  await expectSeen(orgPriv, w.reader.auth, read, 'private: read team with all repositories');
  await expectSeen(orgPriv, w.teamAdmin.auth, all, 'private: admin team');
  await expectSeen(orgPriv, w.owner.auth, all, 'private: org owner');
  await expectSeen(orgPriv, admin.auth, all, 'private: site admin');
  await expectSeen(orgPriv, collab.read.auth, read, 'private: read collaborator');
  await expectSeen(orgPriv, collab.write.auth, write, 'private: write collaborator');
  await expectSeen(orgPriv, collab.admin.auth, all, 'private: admin collaborator');
});

test('a team without the code unit sees the repository but cannot pull', async () => {
  const issuesOnly = await actor(app);
  const team = (await app.services.teams.create(w.org, { name: fresh('Issues'), permission: 'write', unitsMap: { 'repo.issues': 'write' }, includesAllRepositories: true })).team;
  await app.services.teams.addMember(team, { user: await rowOf(app, w.owner), isMember: true, isOwner: true }, await rowOf(app, issuesOnly));
  await expectSeen(orgPriv, issuesOnly.auth, none, 'issues-only team');
});

test('owner visibility: private and limited organizations and users', async () => {
  const hidden = await orgWorld(app, 'private', w);
  const inHidden = await orgRepo(app, hidden.name, hidden.owner);
  await expectHidden(inHidden, undefined, 'private org: anonymous');
  await expectHidden(inHidden, outsider.auth, 'private org: outsider');
  await expectSeen(inHidden, hidden.member.auth, read, 'private org: member');
  await expectSeen(inHidden, admin.auth, all, 'private org: site admin');

  const limited = await orgWorld(app, 'limited', w);
  const inLimited = await orgRepo(app, limited.name, limited.owner);
  await expectHidden(inLimited, undefined, 'limited org: anonymous');
  await expectSeen(inLimited, outsider.auth, read, 'limited org: signed-in outsider');
  await expectHidden(inLimited, restricted.auth, 'limited org: restricted user');

  const shy = await actor(app, { visibility: 'private' });
  const shyRepo = await userRepo(app, shy);
  await expectHidden(shyRepo, undefined, 'private user: anonymous');
  await expectHidden(shyRepo, outsider.auth, 'private user: outsider');
  await expectSeen(shyRepo, shy.auth, all, 'private user: themselves');
  await expectSeen(shyRepo, admin.auth, all, 'private user: site admin');
});

test('names are matched case-insensitively; unknown owners and repositories are 404', async () => {
  const r = await getRepo(app, alice.username.toUpperCase(), pub.name.toUpperCase(), outsider.auth);
  assert.is(r.response.status, 200);
  assert.is(r.data!.full_name, `${alice.username}/${pub.name}`, 'the stored spelling is answered');
  for (const [owner, name] of [['nobody-here', pub.name], [alice.username, 'no-such-repo'], [w.name, pub.name]]) {
    const miss = await getRepo(app, owner!, name!, admin.auth);
    assert.is(miss.response.status, 404, `${owner}/${name}`);
    assertSpec('repoGet', miss);
  }
});

test('tokens: read:repository suffices; other categories are 403; bad credentials are 401 even on a public repository', async () => {
  for (const scopes of [['read:repository'], ['write:repository'], ['all']]) {
    const r = await getRepo(app, alice.username, priv.name, await app.token(alice, scopes));
    assert.is(r.response.status, 200, scopes.join());
  }
  for (const scopes of [['read:user'], ['write:organization', 'read:issue']]) {
    const r = await getRepo(app, alice.username, pub.name, await app.token(alice, scopes));
    assert.is(r.response.status, 403, scopes.join());
    assertSpec('repoGet', r);
    assert.equal(r.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  }
  for (const auth of [`token ${'b'.repeat(40)}`, basic(alice.username, 'not-the-password')]) {
    const r = await getRepo(app, alice.username, pub.name, auth);
    assert.is(r.response.status, 401, auth);
    assertSpec('repoGet', r);
  }
  const viaBasic = await getRepo(app, alice.username, priv.name, alice.basic);
  assert.is(viaBasic.response.status, 200, 'Basic with the password');
});

test('Sudo: a site admin sees what the target user sees', async () => {
  const asOutsider = await app.client(admin.auth).GET('/repos/{owner}/{repo}', {
    params: { path: { owner: alice.username, repo: priv.name } },
    headers: { Sudo: outsider.username },
  });
  assert.is(asOutsider.response.status, 404);
  const asCollab = await app.client(admin.auth).GET('/repos/{owner}/{repo}', {
    params: { path: { owner: alice.username, repo: priv.name } },
    headers: { Sudo: collab.write.username },
  });
  assert.is(asCollab.response.status, 200);
  assert.equal(asCollab.data!.permissions, write);
});

test.run();
