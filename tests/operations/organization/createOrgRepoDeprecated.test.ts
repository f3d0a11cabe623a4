// The deprecated alias POST /org/{org}/repos: the same operation as createOrgRepo, which has the full set
// of body rules; here every status and role once, and the scope rule of its own (organization AND repository).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, assertFsck, existsSync, fresh, getRepo, git, messageOf, orgWorld, permissionOf, raw, repoFolder, siteAdmin,
  swaggerOf, withClone, readIn, type Actor, type CreateRepoOption, type OrgWorld,
} from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let w: OrgWorld;
let admin: Actor;
test.before(async () => {
  app = await startApp();
  w = await orgWorld(app);
  admin = await siteAdmin(app);
});
test.after(async () => {
  await app.close();
});

const create = (org: string, body: CreateRepoOption, authorization?: string) =>
  app.client(authorization).POST('/org/{org}/repos', { params: { path: { org } }, body });

test('201: the same repository as the new route — Repository answer, git on disk, read-after-write', async () => {
  const name = fresh('Old');
  const r = await create(w.name, { name, description: 'via the old route', auto_init: true, gitignores: 'Node', license: 'MIT', private: true }, w.owner.auth);
  assert.is(r.response.status, 201);
  assertSpec('createOrgRepoDeprecated', r);
  const repo = r.data!;
  assert.is(repo.full_name, `${w.name}/${name}`);
  assert.is(repo.owner!.type, 'Organization');
  assert.is(repo.private, true);
  assert.is(repo.empty, false);
  assert.is(repo.default_branch, 'main');
  assert.equal(repo.licenses, ['MIT']);
  assert.equal(repo.permissions, { admin: true, push: true, pull: true });
  assert.equal((await getRepo(app, w.name, name, w.owner.auth)).data, repo);

  const dir = repoFolder(app, w.name, name);
  assertFsck(dir);
  assert.is(git(dir, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/main');
  assert.is(git(dir, ['log', '-1', '--format=%s|%an|%ae', 'main']).trim(), `Initial commit|${w.owner.username}|${w.owner.email}`);
  withClone(dir, (work) => {
    assert.is(readIn(work, 'README.md'), `# ${name}\n\nvia the old route\n`);
    assert.match(readIn(work, '.gitignore'), /node_modules/);
    assert.match(readIn(work, 'LICENSE'), /^MIT License/);
  });
});

test('201: site admin, org owner, creator-team member; the creator becomes admin collaborator', async () => {
  for (const as of [admin, w.owner, w.creator]) {
    const r = await create(w.name, { name: fresh() }, as.auth);
    assert.is(r.response.status, 201, as.username);
    assert.is(r.data!.empty, true);
    assert.ok(existsSync(repoFolder(app, w.name, r.data!.name)));
    if (as === w.creator) assert.is(await permissionOf(app, r.data!, w.creator), 'admin');
  }
});

test('403: members without a creating team and outsiders; nothing is created', async () => {
  for (const as of [w.member, w.reader, w.teamAdmin, w.outsider]) {
    const name = fresh();
    const r = await create(w.name, { name }, as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('createOrgRepoDeprecated', r);
    assert.equal(r.error, { message: 'Given user is not allowed to create repository in organization.', url: swaggerOf(app) });
    assert.not.ok(existsSync(repoFolder(app, w.name, name)));
  }
});

test('403: the token needs write:organization and write:repository', async () => {
  for (const [scopes, missing] of [
    [['write:organization'], 'write:repository'],
    [['write:repository'], 'write:organization'],
    [['read:organization', 'read:repository'], 'write:organization write:repository'],
  ] as const) {
    const r = await create(w.name, { name: fresh() }, await app.token(w.owner, [...scopes]));
    assert.is(r.response.status, 403, scopes.join());
    assertSpec('createOrgRepoDeprecated', r);
    assert.is(messageOf(r.error), `token does not have at least one of required scope(s): [${missing}]`);
  }
  const both = await create(w.name, { name: fresh() }, await app.token(w.owner, ['write:organization', 'write:repository']));
  assert.is(both.response.status, 201);
});

test('401: anonymous callers', async () => {
  const r = await create(w.name, { name: fresh() });
  assert.is(r.response.status, 401);
  assertSpec('createOrgRepoDeprecated', r);
  assert.equal(r.error, { message: 'token is required', url: swaggerOf(app) });
});

test('404: an unknown organization (Gitea: 422) and a private one the caller cannot see; empty body', async () => {
  const unknown = await create('no-such-org', { name: fresh() }, admin.auth);
  assert.is(unknown.response.status, 404);
  assertSpec('createOrgRepoDeprecated', unknown);
  assert.is(await unknown.response.text(), '');
  const hidden = await orgWorld(app, 'private', w);
  const outsider = await actor(app);
  assert.is((await create(hidden.name, { name: fresh() }, outsider.auth)).response.status, 404);
  assert.is((await create(hidden.name, { name: fresh() }, hidden.creator.auth)).response.status, 201);
});

test('409: a taken name, case-insensitively', async () => {
  const name = fresh('Taken');
  assert.is((await create(w.name, { name }, w.owner.auth)).response.status, 201);
  const r = await create(w.name, { name: name.toUpperCase() }, w.owner.auth);
  assert.is(r.response.status, 409);
  assertSpec('createOrgRepoDeprecated', r);
  assert.equal(r.error, { message: 'The repository with the same name already exists.', url: swaggerOf(app) });
});

test('422: reserved names and patterns, bad characters, unknown templates; 400 for malformed JSON', async () => {
  for (const [name, pattern] of [['.', /reserved/], ['-', /reserved/], ['a..b', /invalid/], ['x.git', /pattern/], ['x.wiki', /pattern/],
    ['x.rss', /pattern/], ['x.atom', /pattern/], ['a b', /\[name\]/], ['a/b', /\[name\]/]] as const) {
    const r = await create(w.name, { name }, w.owner.auth);
    assert.is(r.response.status, 422, name);
    assertSpec('createOrgRepoDeprecated', r);
    assert.match(messageOf(r.error), pattern, name);
  }
  const tpl = await create(w.name, { name: fresh(), auto_init: true, license: 'Nope' }, w.owner.auth);
  assert.is(tpl.response.status, 422);
  assert.match(messageOf(tpl.error), /available templates: \[.*Apache-2\.0, .*MIT, .*MPL-2\.0.*\]/);
  const labels = await create(w.name, { name: fresh(), issue_labels: 'Nope' }, w.owner.auth);
  assert.is(labels.response.status, 422);
  assert.match(messageOf(labels.error), /available templates: \[Advanced, Default\]/);

  const bad = await raw(app, 'POST', `/org/${w.name}/repos`, { body: '{"name":', authorization: w.owner.auth });
  assert.is(bad.response.status, 400);
  assertSpecAnswer('createOrgRepoDeprecated', 400, bad.body);
  const missing = await raw(app, 'POST', `/org/${w.name}/repos`, { body: '{}', authorization: w.owner.auth });
  assert.is(missing.response.status, 422);
  assert.equal(missing.body, { message: '[name]: Required', url: swaggerOf(app) });
});

test.run();
