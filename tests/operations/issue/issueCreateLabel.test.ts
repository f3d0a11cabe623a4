import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import type { components } from '../../../generated/openapi.js';
import { messageOf, raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type CreateLabelOption = components['schemas']['CreateLabelOption'];

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
});
test.after(async () => {
  await app.close();
});

const create = (repo: Repo, body: CreateLabelOption, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/labels', { params: { path: repo.path }, body });
const names = async (repo: Repo) => (await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/labels', { params: { path: repo.path } })).data!.map((l) => l.name);

test('201: writers, the owner and the site admin create labels; the answer is the complete Label', async () => {
  for (const [label, as] of [['writer', p.writer], ['owner', p.owner], ['site admin', p.admin]] as const) {
    const r = await create(pub, { name: `made by ${label}`, color: '#00AA11', description: label }, as.auth);
    assert.is(r.response.status, 201, `${label}: ${JSON.stringify(r.error)}`);
    assertSpec('issueCreateLabel', r);
    assert.equal(r.data, {
      id: r.data!.id, name: `made by ${label}`, exclusive: false, is_archived: false, color: '00aa11', description: label,
      url: `${app.config.rootUrl}api/v1/repos/${pub.full_name}/labels/${r.data!.id}`,
    });
  }
  assert.is((await create(priv, { name: 'private', color: 'abcdef' }, p.writer.auth)).response.status, 201, 'writer of a private repository');
  assert.equal((await names(pub)).sort(), ['made by owner', 'made by site admin', 'made by writer']);
});

test('201: colours with or without #, three-digit shorthand expanded, lower case; scoped exclusive and archived labels; names need not be unique', async () => {
  for (const [color, want] of [['FF0000', 'ff0000'], ['#abc', 'aabbcc'], ['0F0', '00ff00']] as const) {
    const r = await create(pub, { name: 'dup', color }, p.writer.auth);
    assert.is(r.response.status, 201, color);
    assert.is(r.data!.color, want, color);
  }
  const scoped = await create(pub, { name: 'priority/high', color: '123456', exclusive: true, is_archived: true }, p.writer.auth);
  assert.is(scoped.response.status, 201);
  assertSpec('issueCreateLabel', scoped);
  assert.is(scoped.data!.exclusive, true);
  assert.is(scoped.data!.is_archived, true);
});

test('403: a reader and an outsider of a public repository', async () => {
  for (const [label, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await create(pub, { name: 'nope', color: '000000' }, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('issueCreateLabel', r);
    assert.equal(r.error, { message: 'user should have a permission to write to a repo', url: swaggerOf(app) });
  }
  assert.not.ok((await names(pub)).includes('nope'));
});

test('401: anonymous; 403: a token without write:issue', async () => {
  const anon = await create(pub, { name: 'x', color: '000000' });
  assert.is(anon.response.status, 401);
  assertSpec('issueCreateLabel', anon);
  const r = await create(pub, { name: 'x', color: '000000' }, await app.token(p.writer, ['read:issue', 'write:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueCreateLabel', r);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:issue]');
});

test('404: a private repository for an outsider, an unknown repository', async () => {
  const r = await create(priv, { name: 'x', color: '000000' }, p.outsider.auth);
  assertEmpty404(r, 'outsider');
  assertSpec('issueCreateLabel', r);
  const unknown = await app.client(p.admin.auth).POST('/repos/{owner}/{repo}/labels', { params: { path: { owner: p.owner.username, repo: 'nope' } }, body: { name: 'x', color: '000000' } });
  assertEmpty404(unknown, 'unknown');
});

test('422: empty or blank name, missing or bad colour', async () => {
  for (const [label, body] of [
    ['empty name', { name: '', color: '000000' }],
    ['blank name', { name: '  ', color: '000000' }],
    ['not hex', { name: 'x', color: 'zzzzzz' }],
    ['too short', { name: 'x', color: '#12' }],
    ['empty colour', { name: 'x', color: '' }],
  ] as Array<[string, CreateLabelOption]>) {
    const r = await create(pub, body, p.writer.auth);
    assert.is(r.response.status, 422, `${label}: ${r.response.status}`);
    assertSpec('issueCreateLabel', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
  const missing = await raw(app, 'POST', `/repos/${pub.full_name}/labels`, { body: '{"name":"x"}', authorization: p.writer.auth });
  assert.is(missing.response.status, 422, 'missing colour');
});

test('423: an archived repository', async () => {
  const repo = await sharedRepo(app, p);
  await editRepo(app, repo, { archived: true });
  const r = await create(repo, { name: 'x', color: '000000' }, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueCreateLabel', r);
  assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
});

test.run();
