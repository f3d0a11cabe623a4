// Two anvil processes on one PostgreSQL database behind haproxy (tests/helpers/cluster.ts): every
// revocation made through one process is refused by the other on the very next request, however recently
// that one served the credential (#31) — asked directly and through the proxy.
import * as assert from 'uvu/assert';
import { call, clusterTest, startCluster, type Answer, type Cluster } from '../helpers/cluster.js';
import { basic } from '../helpers/harness.js';

const test = clusterTest('tests/cluster/revocation.test.ts');

let cluster: Cluster;
let a: string;
let b: string;
let counter = 0;

test.before(async () => {
  cluster = await startCluster();
  [a, b] = cluster.nodes.map((n) => n.url) as [string, string];
});
test.after(async () => {
  await cluster?.close();
});

const ok = (r: Answer, status: number, what: string) => assert.is(r.status, status, `${what}: ${JSON.stringify(r.json)}`);

interface Person {
  name: string;
  password: string;
  token: string;
  tokenId: number;
}

/** A user made through process A, with a token (all scopes). */
async function person(): Promise<Person> {
  const name = `u${process.pid}x${++counter}`;
  const password = 'a-long-password';
  ok(await call(a, cluster.auth, 'POST', '/admin/users', { username: name, email: `${name}@example.com`, password, must_change_password: false }), 201, 'create user');
  const t = await call(a, basic(name, password), 'POST', `/users/${name}/tokens`, { name: 'cli', scopes: ['all'] });
  ok(t, 201, 'create token');
  return { name, password, token: `token ${t.json.sha1}`, tokenId: t.json.id };
}

/** The answer of B, of A, and of the proxy twice (round robin: both processes) to the same call. */
async function everywhere(auth: string, method: string, path: string, body?: (i: number) => unknown): Promise<Answer[]> {
  const out: Answer[] = [];
  let i = 0;
  for (const base of [b, a, cluster.url, cluster.url]) out.push(await call(base, auth, method, path, body?.(i++)));
  return out;
}

/** B served the credential a moment ago (so it has it cached, if it caches), then A changes something. */
async function warm(auth: string, method: string, path: string, status: number, body?: (i: number) => unknown): Promise<void> {
  for (let i = 0; i < 3; i++) ok(await call(b, auth, method, path, body?.(i + 100)), status, `process B before the change (${i})`);
  ok(await call(cluster.url, auth, method, path, body?.(200)), status, 'through the proxy before the change');
}

function refused(answers: Answer[], status: number, what: string): void {
  const where = ['process B', 'process A', 'the proxy', 'the proxy again'];
  answers.forEach((r, i) => assert.is(r.status, status, `${what}, ${where[i]}${r.process ? ` (${r.process})` : ''}: ${JSON.stringify(r.json)}`));
}

const adminEdit = (name: string, change: Record<string, unknown>) =>
  call(a, cluster.auth, 'PATCH', `/admin/users/${name}`, { login_name: name, source_id: 0, ...change });

test('the proxy spreads requests over both processes', async () => {
  const seen = new Set<string | null>();
  for (let i = 0; i < 4; i++) seen.add((await call(cluster.url, undefined, 'GET', '/version')).process);
  assert.equal([...seen].sort(), ['p0', 'p1']);
});

test('a token deleted through A is refused by B on the very next request (many times over)', async () => {
  const p = await person();
  // Several tokens, each deleted right after B served it: the notification races the next request.
  for (let i = 0; i < 12; i++) {
    const t = await call(a, basic(p.name, p.password), 'POST', `/users/${p.name}/tokens`, { name: `t${i}`, scopes: ['all'] });
    ok(t, 201, 'create token');
    const auth = `token ${t.json.sha1}`;
    ok(await call(b, auth, 'GET', '/user'), 200, 'B before');
    ok(await call(b, auth, 'GET', '/user'), 200, 'B before, again');
    ok(await call(a, basic(p.name, p.password), 'DELETE', `/users/${p.name}/tokens/${t.json.id}`), 204, 'delete token');
    ok(await call(b, auth, 'GET', '/user'), 401, `B right after the deletion of token ${i}`);
  }
  await warm(p.token, 'GET', '/user', 200);
  ok(await call(a, basic(p.name, p.password), 'DELETE', `/users/${p.name}/tokens/${p.tokenId}`), 204, 'delete token');
  refused(await everywhere(p.token, 'GET', '/user'), 401, 'deleted token');
});

test('a user deactivated (active=false) through A is refused by B at once, and let in again', async () => {
  const p = await person();
  await warm(p.token, 'GET', '/user', 200);
  ok(await adminEdit(p.name, { active: false }), 200, 'deactivate');
  refused(await everywhere(p.token, 'GET', '/user'), 403, 'deactivated user');
  refused(await everywhere(basic(p.name, p.password), 'GET', '/user'), 401, 'deactivated user, password');
  ok(await adminEdit(p.name, { active: true }), 200, 'activate');
  refused(await everywhere(p.token, 'GET', '/user'), 200, 'active again');
});

test('a user whose sign-in is prohibited through A is refused by B at once', async () => {
  const p = await person();
  await warm(p.token, 'GET', '/user', 200);
  await warm(basic(p.name, p.password), 'GET', '/user', 200);
  ok(await adminEdit(p.name, { prohibit_login: true }), 200, 'prohibit sign-in');
  refused(await everywhere(p.token, 'GET', '/user'), 403, 'prohibited user, token');
  refused(await everywhere(basic(p.name, p.password), 'GET', '/user'), 401, 'prohibited user, password');
});

test('a user deleted through A: their token is 401 on B at once, never a 500', async () => {
  const p = await person();
  await warm(p.token, 'GET', '/user', 200);
  await warm(p.token, 'GET', '/user/emails', 200);
  ok(await call(a, cluster.auth, 'DELETE', `/admin/users/${p.name}`), 204, 'delete user');
  refused(await everywhere(p.token, 'POST', '/user/repos', (i) => ({ name: `after-delete-${i}` })), 401, 'deleted user creating a repository');
  refused(await everywhere(p.token, 'POST', '/user/emails', (i) => ({ emails: [`late${i}@example.com`] })), 401, 'deleted user adding an address');
  refused(await everywhere(basic(p.name, p.password), 'GET', '/user'), 401, 'deleted user, password');
});

test('an administrator demoted through A can no longer administer on B', async () => {
  const p = await person();
  ok(await adminEdit(p.name, { admin: true }), 200, 'make administrator');
  // Warmed with reads: a write through B would empty B's cache by itself.
  await warm(p.token, 'GET', '/admin/users?limit=1', 200);
  ok(await adminEdit(p.name, { admin: false }), 200, 'demote');
  refused(await everywhere(p.token, 'GET', '/admin/users?limit=1'), 403, 'demoted administrator listing users');
  refused(await everywhere(p.token, 'POST', '/admin/users', (i) => ({ username: `late${counter}n${i}`, email: `late${counter}n${i}@example.com`, password: 'a-long-password' })), 403, 'demoted administrator creating a user');
});

test('a collaborator removed through A loses the private repository on B at once', async () => {
  const owner = await person();
  const guest = await person();
  ok(await call(a, owner.token, 'POST', '/user/repos', { name: 'secret', private: true }), 201, 'create repository');
  ok(await call(a, owner.token, 'PUT', `/repos/${owner.name}/secret/collaborators/${guest.name}`, { permission: 'write' }), 204, 'add collaborator');
  await warm(guest.token, 'GET', `/repos/${owner.name}/secret`, 200);
  await warm(guest.token, 'POST', `/repos/${owner.name}/secret/issues`, 201, (i) => ({ title: `before ${i}` }));
  ok(await call(a, owner.token, 'DELETE', `/repos/${owner.name}/secret/collaborators/${guest.name}`), 204, 'remove collaborator');
  refused(await everywhere(guest.token, 'GET', `/repos/${owner.name}/secret`), 404, 'removed collaborator reading');
  refused(await everywhere(guest.token, 'POST', `/repos/${owner.name}/secret/issues`, (i) => ({ title: `after ${i}` })), 404, 'removed collaborator writing');
});

test('a team member removed, an organization member removed, a repository taken from the team, through A: refused on B at once', async () => {
  const owner = await person();
  const member = await person();
  const org = `org${process.pid}x${++counter}`;
  ok(await call(a, owner.token, 'POST', '/orgs', { username: org, visibility: 'public' }), 201, 'create organization');
  ok(await call(a, owner.token, 'POST', `/orgs/${org}/repos`, { name: 'inner', private: true }), 201, 'create repository');
  const team = await call(a, owner.token, 'POST', `/orgs/${org}/teams`, {
    name: 'devs', permission: 'write', units: ['repo.code', 'repo.issues'], includes_all_repositories: false,
  });
  ok(team, 201, 'create team');
  ok(await call(a, owner.token, 'PUT', `/teams/${team.json.id}/repos/${org}/inner`), 204, 'give the team the repository');
  ok(await call(a, owner.token, 'PUT', `/teams/${team.json.id}/members/${member.name}`), 204, 'add member');
  await warm(member.token, 'GET', `/repos/${org}/inner`, 200);
  ok(await call(a, owner.token, 'DELETE', `/teams/${team.json.id}/members/${member.name}`), 204, 'remove member');
  refused(await everywhere(member.token, 'GET', `/repos/${org}/inner`), 404, 'removed team member');

  // Out of the organization (so out of every team).
  ok(await call(a, owner.token, 'PUT', `/teams/${team.json.id}/members/${member.name}`), 204, 'add member again');
  await warm(member.token, 'GET', `/repos/${org}/inner`, 200);
  ok(await call(a, owner.token, 'DELETE', `/orgs/${org}/members/${member.name}`), 204, 'remove from the organization');
  refused(await everywhere(member.token, 'GET', `/repos/${org}/inner`), 404, 'removed organization member');

  ok(await call(a, owner.token, 'PUT', `/teams/${team.json.id}/members/${member.name}`), 204, 'add member again');
  await warm(member.token, 'GET', `/repos/${org}/inner`, 200);
  ok(await call(a, owner.token, 'DELETE', `/teams/${team.json.id}/repos/${org}/inner`), 204, 'take the repository from the team');
  refused(await everywhere(member.token, 'GET', `/repos/${org}/inner`), 404, 'member of a team without the repository');
});

test.run();
