// adminEditUser: a site administrator changes any field of an account.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { listEmails } from '../../helpers/emails.js';
import { basic, startApp, type TestApp } from '../../helpers/harness.js';
import { createOrg } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly } from '../../helpers/userAdmin.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['write:admin']);
});
test.after(async () => {
  await app.close();
});

type Body = components['schemas']['EditUserOption'];
const edit = (username: string, body: Body, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).PATCH('/admin/users/{username}', { params: { path: { username } }, body });
const messageOf = (error: unknown) => (error as { message: string }).message;

test('200: the given fields change, the others stay', async () => {
  const u = await app.user();
  const res = await edit(u.username.toUpperCase(), {
    full_name: 'New Name', location: 'Lyon', website: 'https://example.org', description: 'about', visibility: 'limited',
    restricted: true, max_repo_creation: 3, must_change_password: true, login_name: 'ext-1', source_id: 0, allow_git_hook: true,
  });
  assert.is(res.response.status, 200);
  assertSpec('adminEditUser', res);
  const v = res.data!;
  assert.equal([v.login, v.full_name, v.location, v.website, v.description, v.visibility, v.restricted, v.login_name, v.email, v.active, v.is_admin],
    [u.username, 'New Name', 'Lyon', 'https://example.org', 'about', 'limited', true, 'ext-1', u.email, true, false]);
  const again = await edit(u.username, { location: 'Nantes' });
  assert.equal([again.data!.full_name, again.data!.location], ['New Name', 'Nantes']);
  const row = (await app.services.users.byId(u.id))!;
  assert.equal([row.maxRepoCreation, row.mustChangePassword, row.allowGitHook], [3, true, true]);
  await edit(u.username, { allow_git_hook: false });
  assert.is((await app.services.users.byId(u.id))!.allowGitHook, false, 'allow_git_hook is stored (it takes effect with DISABLE_GIT_HOOKS=false)');
});

test('200: a new e-mail replaces the primary address; a new password replaces the old one', async () => {
  const u = await app.user();
  const res = await edit(u.username, { email: `New-${u.username}@example.org`, password: 'a-new-password' });
  assert.is(res.response.status, 200);
  assert.is(res.data!.email, `New-${u.username}@example.org`);
  const mine = await listEmails(app, basic(u.username, 'a-new-password'));
  assert.is(mine.response.status, 200, 'the new password signs in');
  assert.equal(mine.data!.map((e) => [e.email, e.primary]), [[`New-${u.username}@example.org`, true]]);
  assert.is((await app.client(u.basic).GET('/user')).response.status, 401, 'the old one does not');
  // The old address is free again.
  assert.is((await app.client(await app.token(await app.user())).POST('/user/emails', { body: { emails: [u.email] } })).response.status, 201);
});

test('200: active false or prohibit_login true stop every sign-in at once; true again lets them back', async () => {
  const u = await app.user();
  const token = await app.token(u);
  const repo = await app.client(token).POST('/user/repos', { body: { name: 'mine', private: true } });
  assert.is(repo.response.status, 201);
  const refs = () => fetch(`${app.url}/${u.username}/mine.git/info/refs?service=git-upload-pack`, { headers: { Authorization: token } });
  assert.is((await refs()).status, 200);
  for (const body of [{ active: false }, { prohibit_login: true }] as Body[]) {
    assert.is((await edit(u.username, body)).response.status, 200);
    assert.is((await refs()).status, 403, `git over HTTP too: ${JSON.stringify(body)}`);
    const res = await app.client(token).GET('/user');
    assert.is(res.response.status, 403, JSON.stringify(body));
    assert.match(messageOf(res.error), /prohibited from signing in/);
    // A password is not even checked (401: as a wrong one, nothing told about the account).
    assert.is((await app.client(u.basic).GET('/user')).response.status, 401);
    await edit(u.username, { active: true, prohibit_login: false });
    assert.is((await app.client(token).GET('/user')).response.status, 200);
  }
});

test('200: admin true makes a site administrator, false takes it back', async () => {
  const u = await app.user();
  const token = await app.token(u, ['read:admin']);
  assert.is((await app.client(token).GET('/admin/cron')).response.status, 403);
  assert.is((await edit(u.username, { admin: true })).data!.is_admin, true);
  assert.is((await app.client(token).GET('/admin/cron')).response.status, 200);
  assert.is((await edit(u.username, { admin: false })).data!.is_admin, false);
  assert.is((await app.client(token).GET('/admin/cron')).response.status, 403);
});

test('200: max_repo_creation holds the user to that many repositories (racing creates included); administrators are not held', async () => {
  const u = await app.user();
  const token = await app.token(u);
  assert.is((await edit(u.username, { max_repo_creation: 2 })).response.status, 200);
  const made = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((name) => app.client(token).POST('/user/repos', { body: { name } })));
  assert.equal(made.map((r) => r.response.status).sort(), [201, 201, 422, 422]);
  const refused = made.find((r) => r.response.status === 422)!;
  assert.is(messageOf(refused.error), 'You have already reached your limit of 2 repositories.');
  const forThem = await app.client(await app.token(app.admin)).POST('/admin/users/{username}/repos', { params: { path: { username: u.username } }, body: { name: 'r5' } });
  assert.is(forThem.response.status, 201, 'an administrator creates beyond it');
  await edit(u.username, { max_repo_creation: -1 });
  assert.is((await app.client(token).POST('/user/repos', { body: { name: 'r6' } })).response.status, 201, '-1: the site default, no limit');
});

test('400: a short password; the last administrator keeping admin; 422: taken or malformed e-mail, a source, max_repo_creation beyond 32 bits, an organization', async () => {
  const u = await app.user();
  const other = await app.user();
  const short = await edit(u.username, { password: 'short' });
  assert.is(short.response.status, 400);
  assertSpec('adminEditUser', short);
  const last = await edit(app.admin.username, { admin: false });
  assert.is(last.response.status, 400);
  assert.is(messageOf(last.error), 'You cannot remove the last admin');
  for (const [body, pattern] of [
    [{ email: other.email.toUpperCase() }, /e-mail already in use/],
    [{ email: 'not an address' }, /email/],
    [{ source_id: 4 }, /login source does not exist/],
    [{ visibility: 'secret' }, /visibility/],
    [{ max_repo_creation: 2147483648 }, /max_repo_creation/],
  ] as Array<[Body, RegExp]>) {
    const res = await edit(u.username, body);
    assert.is(res.response.status, 422, JSON.stringify(body));
    assertSpec('adminEditUser', res);
    assert.match(messageOf(res.error), pattern);
  }
  const org = await createOrg(app, u);
  assert.is((await edit(org.name, { full_name: 'x' })).response.status, 422);
  const row = (await app.services.users.byId(u.id))!;
  assert.equal([row.email, row.isAdmin], [u.email, false], 'nothing changed');
});

test('404: an unknown user; 401, 403', async () => {
  assert.is((await edit('no-such-user', { full_name: 'x' })).response.status, 404);
  const u = await app.user();
  await assertAdminOnly(app, (auth) => edit(u.username, { full_name: 'x' }, auth), 'write:admin');
  assert.is((await app.services.users.byId(u.id))!.fullName, '');
});

test.run();
