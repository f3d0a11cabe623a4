import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addTeamMember, adminActor, createOrgRepo, createTeam, linksOf, orgWorld, type Actor, type OrgWorld, type Repository, type Team,
} from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';

/** A public org with a public and a private repository, and teams of every visibility that reach them. */
interface World extends OrgWorld {
  open: Repository;
  secret: Repository;
  /** Public team, every repository, code write. */
  writers: Team;
  /** Limited team, every repository, admin. */
  admins: Team;
  /** Public team without repositories. */
  empty: Team;
  writer: Actor;
  teamAdmin: Actor;
}

let app: TestApp;
let w: World;
let restricted: Actor;
let admin: Actor;

async function world(people?: OrgWorld): Promise<World> {
  const base = await orgWorld(app, 'public', people);
  const open = await createOrgRepo(app, base.owner, base.org.name, { name: 'b-open', description: 'public one' });
  const secret = await createOrgRepo(app, base.owner, base.org.name, { name: 'a-secret', private: true });
  const writers = await createTeam(app, base.owner, base.org.name, { name: 'writers', visibility: 'public', includes_all_repositories: true, units_map: { 'repo.code': 'write', 'repo.issues': 'write' } });
  const admins = await createTeam(app, base.owner, base.org.name, { name: 'admins', visibility: 'limited', includes_all_repositories: true, permission: 'admin' });
  const empty = await createTeam(app, base.owner, base.org.name, { name: 'empty', visibility: 'public', units_map: { 'repo.code': 'write' } });
  const [writer, teamAdmin] = await Promise.all([actor(app), actor(app)]);
  await addTeamMember(app, base.owner, writers.id, writer.username);
  await addTeamMember(app, base.owner, admins.id, teamAdmin.username);
  return { ...base, open, secret, writers, admins, empty, writer, teamAdmin };
}

test.before(async () => {
  app = await startApp();
  [w, restricted, admin] = await Promise.all([world(), actor(app, { restricted: true }), adminActor(app)]);
});
test.after(async () => {
  await app.close();
});

const list = (id: number, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/teams/{id}/repos', { params: { path: { id }, query } });

type Perms = Repository['permissions'];
const read: Perms = { admin: false, push: false, pull: true };
const write: Perms = { admin: false, push: true, pull: true };
const full: Perms = { admin: true, push: true, pull: true };

/** Lists `team` as `auth` and checks names, each repository's permissions for the caller, and X-Total-Count. */
async function expectRepos(team: Team, auth: string, expected: Array<[Repository, Perms]>, label: string) {
  const res = await list(team.id, auth);
  assert.is(res.response.status, 200, label);
  assertSpec('orgListTeamRepos', res);
  assert.equal(res.data!.map((r) => r.name), expected.map(([r]) => r.name), label);
  assert.equal(res.data!.map((r) => r.permissions), expected.map(([, p]) => p), `${label}: permissions`);
  assert.is(res.response.headers.get('x-total-count'), String(expected.length), `${label}: X-Total-Count`);
  return res.data!;
}

async function expect404(id: number, auth: string, label: string) {
  const res = await list(id, auth);
  assert.is(res.response.status, 404, label);
  assertSpec('orgListTeamRepos', res);
  assert.is(await res.response.text(), '', label);
}

test('200: the repositories a team reaches, by name, as complete Repository objects', async () => {
  const repos = await expectRepos(w.writers, w.writer.auth, [[w.secret, write], [w.open, write]], 'team member');
  const byGet = await app.client(w.writer.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: w.open.name } } });
  assert.equal(repos[1], byGet.data, 'the same Repository as GET /repos/{owner}/{repo}');
  assert.is(repos[1]!.owner.login, w.org.name);
  assert.is(repos[0]!.private, true);
});

test('200: the Owners team reaches every repository; owners and site admins have admin', async () => {
  await expectRepos(w.owners, w.owner.auth, [[w.secret, full], [w.open, full]], 'owner');
  await expectRepos(w.owners, admin.auth, [[w.secret, full], [w.open, full]], 'site admin');
  await expectRepos(w.admins, w.teamAdmin.auth, [[w.secret, full], [w.open, full]], 'admin-team member');
});

test('200: a team without repositories lists none', async () => {
  await expectRepos(w.empty, w.owner.auth, [], 'owner');
  await expectRepos(w.empty, w.outsider.auth, [], 'outsider');
});

test('200: callers who see the team but not a repository get only the repositories they may see', async () => {
  await expectRepos(w.writers, w.outsider.auth, [[w.open, read]], 'outsider, public team');
  await expectRepos(w.writers, w.member.auth, [[w.open, read]], 'org member in another team');
  await expectRepos(w.admins, w.creator.auth, [[w.open, read]], 'org member, limited team');
  await expectRepos(w.writers, restricted.auth, [], 'restricted outsider: no public read');
  await expectRepos(w.writers, w.teamAdmin.auth, [[w.secret, full], [w.open, full]], 'member of another team that reaches both');
});

test('200: a repository created later is listed; permissions follow the caller', async () => {
  const local = await world(w);
  const later = await createOrgRepo(app, local.owner, local.org.name, { name: 'c-later', private: true });
  await expectRepos(local.writers, local.writer.auth, [[local.secret, write], [local.open, write], [later, write]], 'writer');
  await expectRepos(local.writers, local.outsider.auth, [[local.open, read]], 'outsider');
});

test('200: pagination — limit, page, X-Total-Count and Link', async () => {
  const first = await list(w.owners.id, w.owner.auth, { limit: 1 });
  assert.is(first.response.status, 200);
  assertSpec('orgListTeamRepos', first);
  assert.equal(first.data!.map((r) => r.name), [w.secret.name]);
  assert.is(first.response.headers.get('x-total-count'), '2');
  assert.equal(linksOf(first.response.headers.get('link')), { next: { page: 2, limit: 1 }, last: { page: 2, limit: 1 } });
  const second = await list(w.owners.id, w.owner.auth, { page: 2, limit: 1 });
  assert.equal(second.data!.map((r) => r.name), [w.open.name]);
  assert.equal(linksOf(second.response.headers.get('link')), { first: { page: 1, limit: 1 }, prev: { page: 1, limit: 1 } });

  // A caller who sees one of the two: one page of one, and no next page.
  const outsider = await list(w.writers.id, w.outsider.auth, { limit: 1 });
  assert.equal(outsider.data!.map((r) => r.name), [w.open.name]);
  assert.is(outsider.response.headers.get('x-total-count'), '1');
  assert.equal(linksOf(outsider.response.headers.get('link')), {});
});

test('404: a team the caller may not see (as GET /teams/{id}), or an unknown team', async () => {
  await expect404(w.readers.id, w.creator.auth, 'member of another team, private team');
  await expect404(w.owners.id, w.member.auth, 'member, Owners');
  await expect404(w.readers.id, w.outsider.auth, 'outsider, private team');
  await expect404(w.admins.id, w.outsider.auth, 'outsider, limited team');
  await expect404(999999, admin.auth, 'unknown');
  const hidden = await orgWorld(app, 'private', w);
  const open = await createTeam(app, hidden.owner, hidden.org.name, { name: 'open', visibility: 'public', includes_all_repositories: true, permission: 'admin' });
  await expect404(open.id, hidden.outsider.auth, 'public team of a private org');
  await expectRepos(open, hidden.member.auth, [], 'its member sees it (no repositories yet)');
});

test('200: Basic sign-in and a read:organization token', async () => {
  await expectRepos(w.writers, w.writer.basic, [[w.secret, write], [w.open, write]], 'Basic');
  await expectRepos(w.writers, await app.token(w.writer, ['read:organization']), [[w.secret, write], [w.open, write]], 'read:organization');
});

test('401: anonymous callers and wrong credentials', async () => {
  for (const auth of [undefined, `token ${'f'.repeat(40)}`]) {
    const res = await list(w.writers.id, auth);
    assert.is(res.response.status, 401, String(auth));
    assertSpec('orgListTeamRepos', res);
  }
});

test('403: a token without read:organization (read:issue on a GET)', async () => {
  const token = await app.token(w.owner, ['read:issue', 'read:repository']);
  const res = await list(w.owners.id, token);
  assert.is(res.response.status, 403);
  assertSpec('orgListTeamRepos', res);
  assert.equal(res.error, { message: 'token does not have at least one of required scope(s): [read:organization]', url: `${app.config.rootUrl}api/swagger` });
});

test('422: an id, page or limit that is not an integer', async () => {
  for (const path of ['teams/abc/repos', `teams/${w.owners.id}/repos?page=x`, `teams/${w.owners.id}/repos?limit=1.5`]) {
    const res = await fetch(`${app.url}/api/v1/${path}`, { headers: { Authorization: w.owner.auth } });
    assert.is(res.status, 422, path);
    const body = await res.json();
    assertSpec('orgListTeamRepos', { response: res, error: body });
    assert.match(body.message, /\[(id|page|limit)\]/);
  }
});

test.run();
