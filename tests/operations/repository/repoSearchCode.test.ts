// Code search (#41, anvil's own operations repoSearchCode and repoSearchCodeAcross): the index follows
// pushes to the default branch through the background worker, and a private repository's code is
// never shown to those who cannot read it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { b64 } from '../../helpers/files.js';
import { actor, userRepo, type Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import type { components } from '../../../generated/openapi.js';

type Repository = components['schemas']['Repository'];
type Change = components['schemas']['ChangeFileOperation'];

let app: TestApp;
let owner: Actor;
let outsider: Actor;
let pub: Repository;
let priv: Repository;

const path = (r: Repository) => ({ owner: r.owner.login, repo: r.name });

/** One commit through the contents API (a push event), then waits for the worker to index it. */
async function change(repo: Repository, files: Change[]): Promise<string> {
  const r = await app.client(owner.auth).POST('/repos/{owner}/{repo}/contents', { params: { path: path(repo) }, body: { files } });
  assert.is(r.response.status, 201, JSON.stringify(r.error));
  const sha = r.data!.commit!.sha!;
  for (let i = 0; i < 400; i++) {
    const s = await app.client(owner.auth).GET('/repos/{owner}/{repo}/search/code', { params: { path: path(repo), query: { q: 'x' } } });
    if (s.data?.indexed_commit === sha) return sha;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`the index did not reach ${sha}`);
}

const create = (p: string, text: string | Buffer): Change => ({ operation: 'create', path: p, content: b64(text) });

test.before(async () => {
  app = await startApp({}, { codeIndex: true });
  [owner, outsider] = await Promise.all([actor(app), actor(app)]);
  [pub, priv] = await Promise.all([userRepo(app, owner, { auto_init: true }), userRepo(app, owner, { auto_init: true, private: true })]);
  await change(pub, [
    create('src/main.go', 'package main\n\nfunc Needle() {\n\treturn haystack\n}\n'),
    create('lib/util.ts', 'export const needle = 1; // Zebra stripes\n'),
    create('docs/guide.md', '# Guide\nthe quick brown fox\n'),
    create('img.bin', Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1, 2])),
  ]);
  await change(priv, [create('secret.go', 'package secret // needle of the private one\n')]);
});
test.after(async () => {
  await app.close();
});

type Query = { q: string; path?: string; language?: string; page?: number; limit?: number };
const inRepo = (repo: Repository, query: Query, as?: Actor) =>
  app.client(as?.auth).GET('/repos/{owner}/{repo}/search/code', { params: { path: path(repo), query } });
const across = (query: Query, as?: Actor) => app.client(as?.auth).GET('/repos/code/search', { params: { query } });
const paths = async (repo: Repository, query: Query, as: Actor = owner) => {
  const r = await inRepo(repo, query, as);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('repoSearchCode', r);
  return r.data!.items.map((h) => h.path);
};

test('200: files holding every term, with their matching lines; binary files are not searched', async () => {
  const r = await inRepo(pub, { q: 'NEEDLE' });
  assert.is(r.response.status, 200);
  assertSpec('repoSearchCode', r);
  assert.is(r.response.headers.get('x-total-count'), '2');
  assert.equal(r.data!.items.map((h) => h.path), ['lib/util.ts', 'src/main.go'], 'path order; not img.bin');
  const go = r.data!.items[1]!;
  assert.equal(go.matches, [{ line: 3, fragment: 'func Needle() {' }]);
  assert.is(go.language, 'Go');
  assert.is(go.repository.full_name, `${owner.username}/${pub.name}`);
  assert.match(go.html_url, `/${pub.name}/src/branch/${pub.default_branch}/src/main.go`);
  assert.equal(await paths(pub, { q: 'needle haystack' }), ['src/main.go'], 'every term');
  assert.equal(await paths(pub, { q: 'needle fox' }), []);
});

test('200: "exact phrases", the path filter and the language filter', async () => {
  assert.equal(await paths(pub, { q: '"quick brown fox"' }), ['docs/guide.md']);
  assert.equal(await paths(pub, { q: '"brown quick"' }), [], 'a phrase is one term, in its order');
  assert.equal(await paths(pub, { q: 'brown quick' }), ['docs/guide.md'], 'words alone in any order');
  assert.equal(await paths(pub, { q: 'needle', path: 'LIB/' }), ['lib/util.ts']);
  assert.equal(await paths(pub, { q: 'needle', language: 'go' }), ['src/main.go']);
  assert.equal(await paths(pub, { q: 'needle', language: 'TypeScript' }), ['lib/util.ts']);
  assert.equal(await paths(pub, { q: '100%' }), [], 'LIKE wildcards are literal');
});

test('200: page and limit with X-Total-Count and Link', async () => {
  const r = await inRepo(pub, { q: 'needle', page: 2, limit: 1 });
  assert.equal(r.data!.items.map((h) => h.path), ['src/main.go']);
  assert.is(r.response.headers.get('x-total-count'), '2');
  assert.match(r.response.headers.get('link') ?? '', /rel="prev"/);
});

test('the index follows pushes: changed, deleted and renamed files', async () => {
  const util = (await app.client(owner.auth).GET('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...path(pub), filepath: 'lib/util.ts' } } })).data as { sha: string };
  await change(pub, [
    { operation: 'update', path: 'lib/util.ts', sha: util.sha, content: b64('export const pin = 2;\n') },
    { operation: 'delete', path: 'docs/guide.md' },
    create('more/new.py', 'needle = "in python"\n'),
  ]);
  assert.equal(await paths(pub, { q: 'needle' }), ['more/new.py', 'src/main.go']);
  assert.equal(await paths(pub, { q: 'brown' }), []);
  assert.equal(await paths(pub, { q: 'pin = 2' }), ['lib/util.ts']);
});

test('private code: 404 for those who cannot read it, and never in a search across repositories', async () => {
  assert.equal(await paths(priv, { q: 'needle' }), ['secret.go']);
  for (const as of [outsider, undefined]) {
    const r = await inRepo(priv, { q: 'needle' }, as);
    assert.is(r.response.status, 404);
    assertSpec('repoSearchCode', r);
    const a = await across({ q: 'needle' }, as);
    assert.is(a.response.status, 200);
    assertSpec('repoSearchCodeAcross', a);
    assert.ok(!a.data!.items.some((h) => h.repository.id === priv.id), 'not the private repository');
    assert.ok(a.data!.items.some((h) => h.repository.id === pub.id && h.path === 'src/main.go'));
  }
  const mine = await across({ q: 'needle' }, owner);
  assert.ok(mine.data!.items.some((h) => h.repository.id === priv.id && h.path === 'secret.go'), 'the owner finds it');
  const admin = await actor(app, { admin: true });
  assert.ok((await across({ q: 'private one' }, admin)).data!.items.some((h) => h.repository.id === priv.id), 'a site administrator too');
});

test('422: no terms, or a missing q', async () => {
  for (const query of [{ q: '""' }, { q: '' }, {} as Query]) {
    const r = await inRepo(pub, query);
    assert.is(r.response.status, 422, JSON.stringify(query));
    assertSpec('repoSearchCode', r);
    const a = await across(query);
    assert.is(a.response.status, 422, JSON.stringify(query));
  }
});

test.run();
