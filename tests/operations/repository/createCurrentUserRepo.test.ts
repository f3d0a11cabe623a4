import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { collaborations, labels, repositories } from '../../../src/db/schema/index.js';
import { folderSize } from '../../../src/git/size.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, assertFsck, existsSync, fresh, getRepo, git, messageOf, permissionOf, raw, readIn, repoFolder, siteAdmin, swaggerOf,
  withClone, type Actor, type CreateRepoOption,
} from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let alice: Actor;
let bob: Actor;
let admin: Actor;
test.before(async () => {
  app = await startApp();
  [alice, bob] = await Promise.all([actor(app), actor(app)]);
  admin = await siteAdmin(app);
});
test.after(async () => {
  await app.close();
});

const create = (body: CreateRepoOption, authorization?: string) => app.client(authorization).POST('/user/repos', { body });

test('201: the caller owns the new repository; full answer with owner permissions; read-after-write', async () => {
  const name = fresh('Mine');
  const r = await create({ name, description: 'mine' }, alice.auth);
  assert.is(r.response.status, 201);
  assertSpec('createCurrentUserRepo', r);
  const repo = r.data!;
  const root = app.config.rootUrl;
  assert.is(repo.name, name);
  assert.is(repo.full_name, `${alice.username}/${name}`);
  assert.is(repo.description, 'mine');
  assert.is(repo.owner!.id, alice.id);
  assert.is(repo.owner!.login, alice.username);
  assert.is(repo.owner!.type, 'User');
  assert.is(repo.owner!.email, alice.email, 'the caller sees their own e-mail');
  assert.is(repo.private, false);
  assert.is(repo.empty, true);
  assert.is(repo.template, false);
  assert.is(repo.default_branch, 'main');
  assert.is(repo.object_format_name, 'sha1');
  assert.is(repo.html_url, `${root}${alice.username}/${name}`);
  assert.is(repo.clone_url, `${root}${alice.username}/${name}.git`);
  assert.is(repo.url, `${root}api/v1/repos/${alice.username}/${name}`);
  assert.equal(repo.permissions, { admin: true, push: true, pull: true });
  assert.is(repo.repo_transfer, null);
  assert.equal((await getRepo(app, alice.username, name, alice.auth)).data, repo);

  const db = app.services.deps.db;
  const [row] = await db.select().from(repositories).where(eq(repositories.id, repo.id));
  assert.is(row!.ownerId, alice.id);
  assert.is(row!.trustModel, 'default');
  assert.equal(await db.select().from(collaborations).where(eq(collaborations.repoId, repo.id)), [], 'no collaborator rows');
  assert.is(await permissionOf(app, repo, alice), 'owner');

  const dir = repoFolder(app, alice.username, name);
  assert.is(git(dir, ['rev-parse', '--is-bare-repository']).trim(), 'true');
  assert.is(git(dir, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/main');
  assertFsck(dir);
});

test('201: auto_init with README, gitignores and license, by the caller; the clone has them', async () => {
  const name = fresh('Init');
  const r = await create({ name, description: 'd', auto_init: true, gitignores: 'Rust,Go', license: 'BSD-3-Clause', default_branch: 'trunk' }, bob.auth);
  assert.is(r.response.status, 201);
  const repo = r.data!;
  assert.is(repo.empty, false);
  assert.is(repo.default_branch, 'trunk');
  assert.is(repo.branch_count, 1);
  assert.equal(repo.licenses, ['BSD-3-Clause']);
  const dir = repoFolder(app, bob.username, name);
  assertFsck(dir);
  assert.is(git(dir, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/trunk');
  assert.is(git(dir, ['rev-list', '--count', 'trunk']).trim(), '1');
  assert.is(git(dir, ['log', '-1', '--format=%s|%an|%ae|%cn|%ce']).trim(), `Initial commit|${bob.username}|${bob.email}|${bob.username}|${bob.email}`);
  withClone(dir, (work) => {
    assert.is(git(work, ['rev-parse', '--abbrev-ref', 'HEAD']).trim(), 'trunk');
    assert.is(readIn(work, 'README.md'), `# ${name}\n\nd\n`);
    assert.match(readIn(work, '.gitignore'), /^# ---> Rust\n(.*\n)*target\n(.*\n)*# ---> Go\n/);
    assert.match(readIn(work, 'LICENSE'), new RegExp(`^Copyright \\(c\\) ${new Date().getUTCFullYear()} ${bob.username}\\.`));
  });
});

test('201: an auto_init repository\'s size is its folder\'s from the start, as Gitea computes it after init (not 0 until a push)', async () => {
  const name = fresh('Sized');
  const r = await create({ name, auto_init: true, gitignores: 'Rust,Go,Node', license: 'GPL-3.0-or-later' }, bob.auth);
  assert.is(r.response.status, 201);
  const kb = Math.round((await folderSize(repoFolder(app, bob.username, name))) / 1024);
  assert.ok(kb > 0, `a folder of ${kb} KB`);
  assert.is(r.data!.size, kb, 'the answer of the creation');
  assert.is((await getRepo(app, bob.username, name, bob.auth)).data!.size, kb, 'read afterwards');
  const [row] = await app.services.deps.db.select({ sizeBytes: repositories.sizeBytes }).from(repositories).where(eq(repositories.id, r.data!.id!));
  assert.is(row!.sizeBytes, await folderSize(repoFolder(app, bob.username, name)), 'the bytes recorded are the folder\'s');
});

test('201: sha256, private, template, trust_model and issue_labels', async () => {
  const name = fresh('All');
  const r = await create({ name, object_format_name: 'sha256', private: true, template: true, trust_model: 'committer', issue_labels: 'Default', auto_init: true }, alice.auth);
  assert.is(r.response.status, 201);
  assert.is(r.data!.object_format_name, 'sha256');
  assert.is(r.data!.private, true);
  assert.is(r.data!.template, true);
  const dir = repoFolder(app, alice.username, name);
  assert.is(git(dir, ['rev-parse', '--show-object-format']).trim(), 'sha256');
  assert.match(git(dir, ['rev-parse', 'HEAD']).trim(), /^[0-9a-f]{64}$/);
  assertFsck(dir);
  const db = app.services.deps.db;
  const [row] = await db.select().from(repositories).where(eq(repositories.id, r.data!.id));
  assert.is(row!.trustModel, 'committer');
  const names = (await db.select().from(labels).where(eq(labels.repoId, r.data!.id))).map((l) => l.name).sort();
  assert.ok(names.includes('bug') && names.includes('enhancement'), names.join());

  for (const auth of [undefined, bob.auth]) assert.is((await getRepo(app, alice.username, name, auth)).response.status, 404, 'private: 404 to others');
  assert.is((await getRepo(app, alice.username, name, admin.auth)).response.status, 200, 'the site admin sees it');
});

test('201: a site admin, a restricted user, and an admin acting through Sudo create their own', async () => {
  const mine = await create({ name: fresh() }, admin.auth);
  assert.is(mine.response.status, 201);
  assert.is(mine.data!.owner!.login, app.admin.username);

  const restricted = await actor(app, { restricted: true });
  const own = await create({ name: fresh(), private: true }, restricted.auth);
  assert.is(own.response.status, 201, 'restricted users may create repositories');
  assert.is((await getRepo(app, restricted.username, own.data!.name, restricted.auth)).response.status, 200, 'and see them');

  const sudo = await app.client(admin.auth).POST('/user/repos', { body: { name: fresh() }, headers: { Sudo: bob.username } });
  assert.is(sudo.response.status, 201);
  assert.is(sudo.data!.owner!.login, bob.username, 'the Sudo target owns it');
  assert.ok(existsSync(repoFolder(app, bob.username, sudo.data!.name)));
});

test('201: a token with write:repository (or all); 403 for read:repository or another category', async () => {
  for (const scopes of [['write:repository'], ['all']]) {
    const r = await create({ name: fresh() }, await app.token(alice, scopes));
    assert.is(r.response.status, 201, scopes.join());
  }
  for (const scopes of [['read:repository'], ['write:organization'], ['write:user', 'write:issue']]) {
    const name = fresh();
    const r = await create({ name }, await app.token(alice, scopes));
    assert.is(r.response.status, 403, scopes.join());
    assertSpec('createCurrentUserRepo', r);
    assert.equal(r.error, { message: 'token does not have at least one of required scope(s): [write:repository]', url: swaggerOf(app) });
    assert.not.ok(existsSync(repoFolder(app, alice.username, name)));
  }
});

test('401: anonymous callers and a wrong token', async () => {
  const r = await create({ name: fresh() });
  assert.is(r.response.status, 401);
  assertSpec('createCurrentUserRepo', r);
  assert.equal(r.error, { message: 'token is required', url: swaggerOf(app) });
  const bad = await create({ name: fresh() }, `token ${'a'.repeat(40)}`);
  assert.is(bad.response.status, 401);
});

test('404: Sudo to an unknown user', async () => {
  const r = await app.client(admin.auth).POST('/user/repos', { body: { name: fresh() }, headers: { Sudo: 'nobody-at-all' } });
  assert.is(r.response.status, 404);
  assertSpec('createCurrentUserRepo', r);
});

test('409: a name the caller already uses (case-insensitive); other users may use it', async () => {
  const name = fresh('Same');
  assert.is((await create({ name, auto_init: true }, alice.auth)).response.status, 201);
  const head = git(repoFolder(app, alice.username, name), ['rev-parse', 'HEAD']).trim();
  for (const again of [name, name.toLowerCase(), name.toUpperCase()]) {
    const r = await create({ name: again }, alice.auth);
    assert.is(r.response.status, 409, again);
    assertSpec('createCurrentUserRepo', r);
    assert.equal(r.error, { message: 'The repository with the same name already exists.', url: swaggerOf(app) });
  }
  assert.is(git(repoFolder(app, alice.username, name), ['rev-parse', 'HEAD']).trim(), head, 'untouched');
  assert.is((await create({ name }, bob.auth)).response.status, 201, 'another owner may use the name');
});

test('422: reserved names, patterns, bad characters, bad default branch, unknown templates', async () => {
  const cases: Array<[CreateRepoOption, RegExp]> = [
    [{ name: '.' }, /name is reserved/],
    [{ name: '-' }, /name is reserved/],
    [{ name: 'a..b' }, /name is invalid/],
    [{ name: 'x.git' }, /pattern is not allowed \[pattern: \*\.git\]/],
    [{ name: 'x.wiki' }, /pattern is not allowed/],
    [{ name: 'x.rss' }, /pattern is not allowed/],
    [{ name: 'x.atom' }, /pattern is not allowed/],
    [{ name: 'a b' }, /\[name\]/],
    [{ name: 'a$b' }, /\[name\]/],
    [{ name: fresh(), default_branch: 'a b' }, /default_branch/],
    [{ name: fresh(), auto_init: true, gitignores: 'Cobol' }, /gitignore template does not exist \[Cobol\], available templates: \[AL, .*, Go, .*\]/],
    [{ name: fresh(), auto_init: true, license: 'No-Such-License-1.0' }, /license template does not exist/],
    [{ name: fresh(), auto_init: true, readme: 'Other' }, /readme template does not exist \[Other\], available templates: \[Default\]/],
    [{ name: fresh(), issue_labels: 'Other' }, /label set template does not exist/],
  ];
  for (const [body, pattern] of cases) {
    const r = await create(body, alice.auth);
    assert.is(r.response.status, 422, JSON.stringify(body));
    assertSpec('createCurrentUserRepo', r);
    assert.match(messageOf(r.error), pattern, JSON.stringify(body));
    if (/^[-.\w]+$/.test(body.name)) assert.not.ok(existsSync(repoFolder(app, alice.username, body.name)));
  }
  const missing = await raw(app, 'POST', '/user/repos', { body: '{"private":true}', authorization: alice.auth });
  assert.is(missing.response.status, 422);
  assertSpecAnswer('createCurrentUserRepo', 422, missing.body);
  assert.equal(missing.body, { message: '[name]: Required', url: swaggerOf(app) });
});

test('400: a malformed JSON body', async () => {
  const r = await raw(app, 'POST', '/user/repos', { body: '{"name"', authorization: alice.auth });
  assert.is(r.response.status, 400);
  assertSpecAnswer('createCurrentUserRepo', 400, r.body);
  assert.match(r.body.message, /invalid JSON body/);
});

test.run();
