import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { linksOf } from '../../helpers/orgs.js';
import { pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type Tag = components['schemas']['Tag'];

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let empty: Repository;
let dir: string;
/** Every tag in the expected order, with its expected body. */
let expected: Tag[];

const at = (d: string) => new Date(`${d}T00:00:00Z`);
const stamp = (d: string) => `${at(d).getTime() / 1000} +0000`;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv, empty] = await Promise.all([
    repoFor(app, r),
    repoFor(app, r, { private: true }),
    repoFor(app, r, { auto_init: false }),
  ]);
  dir = dirOf(app, repo);
  const api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  const html = `${app.config.rootUrl}${repo.full_name}`;
  const c2019 = await disk.commit(dir, 'main', { '2019': 'x' }, { message: 'commit of 2019\n', date: at('2019-01-01') });
  const c2020 = await disk.commit(dir, 'main', { '2020': 'x' }, { message: 'commit of 2020\n\nbody\n', date: at('2020-01-01') });
  const c2021 = await disk.commit(dir, 'main', { '2021': 'x' }, { message: 'commit of 2021\n', date: at('2021-01-01') });
  // Annotated tags sort by their commit's date; the tagger dates are deliberately in another order.
  const annotated = async (name: string, commit: string, taggerDay: string) => {
    await disk.run(dir, ['tag', '-a', '-m', `  tag ${name}  \n\nnotes`, name, commit], { env: { GIT_COMMITTER_DATE: stamp(taggerDay) } });
    const id = (await disk.rev(dir, `refs/tags/${name}`))!;
    return {
      name, message: `tag ${name}\n\nnotes`, id,
      commit: { url: `${api}/git/commits/${id}`, sha: commit, created: `${taggerDay}T00:00:00Z` },
      zipball_url: `${html}/archive/${name}.zip`, tarball_url: `${html}/archive/${name}.tar.gz`,
    };
  };
  const light = async (name: string, commit: string, message: string, day: string) => {
    await disk.run(dir, ['tag', name, commit]);
    return {
      name, message, id: commit,
      commit: { url: `${api}/git/commits/${commit}`, sha: commit, created: `${day}T00:00:00Z` },
      zipball_url: `${html}/archive/${name}.zip`, tarball_url: `${html}/archive/${name}.tar.gz`,
    };
  };
  const a2020 = await annotated('a-2020', c2020, '2030-01-01');
  const b2021 = await annotated('b-2021', c2021, '2010-01-01');
  const a2021 = await annotated('a-2021', c2021, '2011-01-01');
  const a2019 = await annotated('a-2019', c2019, '2040-01-01');
  const z = await light('z-light', c2021, 'commit of 2021', '2021-01-01');
  const l = await light('l-light', c2019, 'commit of 2019', '2019-01-01');
  const m = await light('m-light', c2020, 'commit of 2020\n\nbody', '2020-01-01');
  expected = [a2021, b2021, a2020, a2019, l, m, z];
});
test.after(async () => {
  await app.close();
});

const list = (target: Repository, query: { page?: number; limit?: number } = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/tags', { params: { path: pathOf(target), query } });

test('200: annotated tags by their commit\'s date (newest first), then lightweight tags by name; bodies from git', async () => {
  const res = await list(repo, {}, r.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoListTags', res);
  assert.equal(res.data, expected);
  assert.is(res.response.headers.get('X-Total-Count'), '7');
  assert.is(res.response.headers.get('Link'), null);
  assert.match(res.response.headers.get('Access-Control-Expose-Headers') ?? '', /Link/);
  const kinds = await disk.run(dir, ['for-each-ref', '--format=%(refname:strip=2) %(objecttype)', 'refs/tags/']);
  assert.match(kinds, /^a-2020 tag$/m);
  assert.match(kinds, /^z-light commit$/m);
});

test('200: pages with X-Total-Count and Link', async () => {
  const seen: string[] = [];
  for (let page = 1; page <= 3; page++) {
    const res = await list(repo, { page, limit: 3 });
    assert.is(res.response.status, 200);
    assertSpec('repoListTags', res);
    assert.is(res.response.headers.get('X-Total-Count'), '7');
    seen.push(...res.data!.map((t) => t.name));
    const links = linksOf(res.response.headers.get('Link'));
    assert.equal(links.next, page < 3 ? { page: page + 1, limit: 3 } : undefined, `page ${page} next`);
    assert.equal(links.last, page < 3 ? { page: 3, limit: 3 } : undefined, `page ${page} last`);
    assert.equal(links.prev, page > 1 ? { page: page - 1, limit: 3 } : undefined, `page ${page} prev`);
    assert.equal(links.first, page > 1 ? { page: 1, limit: 3 } : undefined, `page ${page} first`);
  }
  assert.equal(seen, expected.map((t) => t.name));
  const beyond = await list(repo, { page: 5, limit: 3 });
  assert.equal(beyond.data, []);
  assert.is(beyond.response.headers.get('X-Total-Count'), '7');
  assert.equal((await list(repo, { page: 0, limit: 0 })).data!.length, 7, 'page 0 and limit 0 mean the defaults');
});

test('200: anyone who can read the code; a private repository for its collaborators and the site admin', async () => {
  const callers: Array<[string | undefined, string]> = [
    [undefined, 'anonymous'], [r.outsider.auth, 'outsider'], [r.reader.auth, 'reader'], [r.writer.auth, 'writer'],
    [r.owner.auth, 'owner'], [r.admin.auth, 'site admin'], [await app.token(r.outsider, ['read:repository']), 'read token'],
  ];
  for (const [auth, label] of callers) {
    const res = await list(repo, {}, auth);
    assert.is(res.response.status, 200, label);
    assert.equal(res.data!.map((t) => t.name), expected.map((t) => t.name), label);
  }
  const p = dirOf(app, priv);
  await disk.run(p, ['tag', 'secret', 'main']);
  for (const who of [r.reader, r.writer, r.owner, r.admin]) {
    const res = await list(priv, {}, who.auth);
    assert.is(res.response.status, 200, who.username);
    assert.equal(res.data!.map((t) => t.name), ['secret']);
  }
});

test('200: an empty repository and a repository without tags answer an empty list', async () => {
  const none = await repoFor(app, r);
  for (const target of [empty, none]) {
    const res = await list(target, {}, r.owner.auth);
    assert.is(res.response.status, 200);
    assertSpec('repoListTags', res);
    assert.equal(res.data, []);
    assert.is(res.response.headers.get('X-Total-Count'), '0');
  }
});

test('404 (empty): a private repository for anonymous callers and outsiders; an unknown repository', async () => {
  for (const auth of [undefined, r.outsider.auth]) {
    const res = await list(priv, {}, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoListTags', res);
    assert.is(res.error, undefined);
  }
  assert.is((await list({ full_name: `${r.owner.username}/nope` } as Repository, {}, r.owner.auth)).response.status, 404);
});

test('401: a wrong token; 403: a token without the repository scope', async () => {
  const bad = await list(repo, {}, `token ${'0'.repeat(40)}`);
  assert.is(bad.response.status, 401);
  assertSpec('repoListTags', bad);
  const scoped = await list(repo, {}, await wrongScope(app, r.owner, false));
  assert.is(scoped.response.status, 403);
  assertSpec('repoListTags', scoped);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
});

test('422: page or limit that is not an integer', async () => {
  for (const query of ['page=x', 'limit=2.5']) {
    const res = await fetch(`${app.url}/api/v1/repos/${repo.full_name}/tags?${query}`);
    assert.is(res.status, 422, query);
    assert.match((await res.json()).message, /page|limit/);
  }
});

test.run();
