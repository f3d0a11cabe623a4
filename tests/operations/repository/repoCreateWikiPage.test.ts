import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { commitTo, gitRun, repoFor, roles, setArchived, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { actor, assertFsck, fresh, orgRepo, orgWorld, pathOf, raw, rowOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type Body = components['schemas']['CreateWikiPageOptions'];

let app: TestApp;
let r: Roles;
let repo: Repository; // public, r.writer and r.reader as collaborators

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  repo = await repoFor(app, r);
});
test.after(async () => {
  await app.close();
});

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const wikiOf = (target: Repository) => {
  const { owner, repo: name } = pathOf(target);
  return join(app.config.dataDir, 'repositories', owner.toLowerCase(), `${name.toLowerCase()}.wiki.git`);
};
/** The files of the wiki's branch, as the git CLI lists them. */
const wikiFiles = (target: Repository, branch = target.default_branch) =>
  gitRun(wikiOf(target), ['ls-tree', '-r', '-z', '--name-only', branch]).split('\0').filter(Boolean).sort();

const create = (target: Repository, body: Body, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/wiki/new', { params: { path: pathOf(target) }, body });

/** A 201 answer, checked against the spec; answers the page. */
async function created(res: Awaited<ReturnType<typeof create>>, label: string) {
  assert.is(res.response.status, 201, `${label}: ${JSON.stringify(res.error)}`);
  assertSpec('repoCreateWikiPage', res);
  return res.data!;
}

/** A {message,url} error with `status`. */
function failed(res: Awaited<ReturnType<typeof create>>, status: number, label: string, message?: RegExp) {
  assert.is(res.response.status, status, `${label}: ${JSON.stringify(res.data ?? res.error)}`);
  assertSpec('repoCreateWikiPage', res);
  if (status === 404) return;
  const e = res.error as { message: string; url: string };
  assert.is(e.url, swaggerOf(app), label);
  if (message) assert.match(e.message, message, label);
}

test('201: the writer creates the first page; the wiki repository is made; full WikiPage answer', async () => {
  const target = await repoFor(app, r);
  assert.not.ok(existsSync(wikiOf(target)), 'no wiki before the first page');
  const page = await created(await create(target, { title: 'New page', content_base64: b64('# Hello\n') }, r.writer.auth), 'New page');
  const dir = wikiOf(target);
  const tip = gitRun(dir, ['rev-parse', `refs/heads/${target.default_branch}`]).trim();
  assert.is(page.title, 'New page');
  assert.is(page.sub_url, 'New-page');
  assert.is(page.html_url, `${target.html_url}/wiki/New-page`);
  assert.is(Buffer.from(page.content_base64, 'base64').toString(), '# Hello\n');
  assert.is(page.commit_count, 1);
  assert.is(page.sidebar, '');
  assert.is(page.footer, '');
  const c = page.last_commit;
  assert.is(c.sha, tip);
  assert.is(c.message, 'Add "New page"\n', 'the default message, Go-quoted');
  assert.is(c.author.name, r.writer.username);
  assert.is(c.author.email, r.writer.email);
  assert.equal(c.commiter, c.author, 'the committer is spelled `commiter`');
  assert.not.ok('committer' in c);
  assert.match(c.author.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  // What landed on disk, through the git CLI.
  assert.is(gitRun(dir, ['rev-parse', '--is-bare-repository']).trim(), 'true');
  assert.is(gitRun(dir, ['symbolic-ref', 'HEAD']).trim(), `refs/heads/${target.default_branch}`);
  assert.is(gitRun(dir, ['rev-parse', '--show-object-format']).trim(), 'sha1');
  assert.equal(wikiFiles(target), ['New-page.md']);
  assert.is(gitRun(dir, ['cat-file', 'blob', `${tip}:New-page.md`]), '# Hello\n');
  assert.is(gitRun(dir, ['log', '-1', '--format=%an|%ae|%cn|%ce|%P']).trim(), `${r.writer.username}|${r.writer.email}|${r.writer.username}|${r.writer.email}|`);
  assertFsck(dir);
  // The main repository is untouched.
  assert.is(gitRun(join(dir, '..', `${pathOf(target).repo.toLowerCase()}.git`), ['rev-list', '--count', target.default_branch]).trim(), '1');
});

test('201: sub_url and git file names follow Gitea (reference examples)', async () => {
  const target = await repoFor(app, r);
  const cases: Array<[string, string, string]> = [
    ['New page', 'New-page', 'New-page.md'],
    ['&&&&', '%26%26%26%26', '%26%26%26%26.md'],
    ['2000-01-02 meeting', '2000-01-02+meeting.-', '2000-01-02 meeting.-.md'],
    ['notes.md', 'notes.md.-', 'notes.md.-.md'],
    ['a+b', 'a%2Bb', 'a%2Bb.md'],
    ['Grüße an alle', 'Gr%C3%BC%C3%9Fe-an-alle', 'Gr%C3%BC%C3%9Fe-an-alle.md'],
    ['.', 'unnamed', 'unnamed.md'],
  ];
  for (const [title, sub, file] of cases) {
    const page = await created(await create(target, { title, content_base64: b64(title) }, r.owner.auth), title);
    assert.is(page.sub_url, sub, title);
    assert.is(page.html_url, `${target.html_url}/wiki/${sub}`, title);
    assert.is(page.title, title === '.' ? 'unnamed' : title, title);
    assert.ok(wikiFiles(target).includes(file), `${title}: ${file} in ${wikiFiles(target)}`);
  }
  assert.equal(wikiFiles(target), cases.map(([, , f]) => f).sort());
  assertFsck(wikiOf(target));
});

test('201: titles that look like paths stay one top-level file', async () => {
  const target = await repoFor(app, r);
  const titles = ['../evil', '../../../../etc/passwd', '/etc/passwd', 'a/b/c', '..\\..\\x', '..', 'C:\\win', '.git', '.git/config', '%2e%2e%2fup', '-rf'];
  // Every one is created (`..` becomes `unnamed`, the only such title here), each as one file.
  for (const title of titles) await created(await create(target, { title, content_base64: b64('x') }, r.owner.auth), title);
  const files = wikiFiles(target);
  assert.is(files.length, titles.length);
  assert.ok(files.includes('unnamed.md'), `'..' is the page unnamed: ${files}`);
  for (const f of files) assert.match(f, /^[^/]+\.md$/, f);
  assert.ok(files.includes('..%2Fevil.md') && files.includes('%2Fetc%2Fpasswd.md') && files.includes('.git.md') && files.includes('-rf.-.md'), String(files));
  assertFsck(wikiOf(target));
  // Nothing with those names was written anywhere on disk: only git objects hold them.
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [e.name, ...walk(join(d, e.name))] : [e.name]));
  const names = walk(app.config.dataDir);
  assert.not.ok(names.some((n) => /evil|passwd|C:|^up(\.md)?$/.test(n)), 'no file named after a title');
});

test('201: message as given; the default quotes the untrimmed title as Go %q', async () => {
  const target = await repoFor(app, r);
  const given = await created(await create(target, { title: 'Given', content_base64: b64('x'), message: 'my message' }, r.writer.auth), 'given');
  assert.is(given.last_commit.message, 'my message\n');
  const odd = ' say "hi"\tnow ';
  const quoted = await created(await create(target, { title: odd, content_base64: b64('x'), message: '' }, r.writer.auth), 'quoted');
  assert.is(quoted.last_commit.message, 'Add " say \\"hi\\"\\tnow "\n');
  assert.is(quoted.title, 'say "hi"\tnow');
  const none = await created(await create(target, { title: 'Nulls', content_base64: null, message: null }, r.writer.auth), 'nulls');
  assert.is(none.last_commit.message, 'Add "Nulls"\n');
  assert.is(none.content_base64, '', 'no content is an empty page');
  assert.is(gitRun(wikiOf(target), ['cat-file', '-s', `${target.default_branch}:Nulls.md`]).trim(), '0');
});

test('201: base64 as Go decodes it (standard alphabet, padded, CR/LF skipped); binary content kept', async () => {
  const target = await repoFor(app, r);
  const bytes = Buffer.from([0, 255, 10, 13, 128, 1, 2, 3]);
  const page = await created(await create(target, { title: 'Bytes', content_base64: bytes.toString('base64') }, r.writer.auth), 'bytes');
  assert.equal(Buffer.from(page.content_base64, 'base64'), bytes);
  const wrapped = await created(await create(target, { title: 'Wrapped', content_base64: 'YWJj\r\nZGVm\n' }, r.writer.auth), 'wrapped');
  assert.is(Buffer.from(wrapped.content_base64, 'base64').toString(), 'abcdef');
});

test('201: _Sidebar and _Footer are pages, and every page carries them', async () => {
  const target = await repoFor(app, r);
  await created(await create(target, { title: '_Sidebar', content_base64: b64('side') }, r.writer.auth), 'sidebar');
  const footer = await created(await create(target, { title: '_Footer', content_base64: b64('foot') }, r.writer.auth), 'footer');
  assert.is(footer.sidebar, b64('side'));
  const page = await created(await create(target, { title: 'Home', content_base64: b64('home') }, r.writer.auth), 'home');
  assert.is(page.sidebar, b64('side'));
  assert.is(page.footer, b64('foot'));
  assert.is(page.commit_count, 1, 'only the commits touching the page');
  assert.equal(wikiFiles(target), ['Home.md', '_Footer.md', '_Sidebar.md']);
});

test('201: the wiki follows the repository: default branch name and object format', async () => {
  const trunk = await repoFor(app, r, { default_branch: 'trunk' });
  await created(await create(trunk, { title: 'T', content_base64: b64('t') }, r.owner.auth), 'trunk');
  assert.is(gitRun(wikiOf(trunk), ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/trunk');
  assert.equal(wikiFiles(trunk, 'trunk'), ['T.md']);

  const sha256 = await repoFor(app, r, { object_format_name: 'sha256' });
  const page = await created(await create(sha256, { title: 'S', content_base64: b64('s') }, r.owner.auth), 'sha256');
  assert.is(page.last_commit.sha.length, 64);
  assert.is(gitRun(wikiOf(sha256), ['rev-parse', '--show-object-format']).trim(), 'sha256');
  assertFsck(wikiOf(sha256));
});

test('201: concurrent pages on a new wiki are all kept, in a linear history', async () => {
  const target = await repoFor(app, r);
  const titles = Array.from({ length: 12 }, (_, i) => `Page ${i}`);
  const answers = await Promise.all(titles.map((title) => create(target, { title, content_base64: b64(title) }, r.writer.auth)));
  for (const [i, res] of answers.entries()) await created(res, titles[i]!);
  assert.equal(wikiFiles(target), titles.map((t) => `${t.replace(' ', '-')}.md`).sort());
  const dir = wikiOf(target);
  assert.is(gitRun(dir, ['rev-list', '--count', target.default_branch]).trim(), '12');
  assert.is(gitRun(dir, ['rev-list', '--min-parents=2', '--count', target.default_branch]).trim(), '0');
  assertFsck(dir);
  // The same title at once: exactly one wins.
  const same = await Promise.all([0, 1, 2, 3].map(() => create(target, { title: 'Race', content_base64: b64('r') }, r.writer.auth)));
  assert.equal(same.map((s) => s.response.status).sort(), [201, 400, 400, 400]);
});

test('400: blank or whitespace-only title (Go spaces), missing title', async () => {
  for (const title of ['', '   ', '\t\n', '\u3000\u00a0', '\u0085', undefined, null]) {
    failed(await create(repo, { title, content_base64: b64('x') } as Body, r.writer.auth), 400, JSON.stringify(title));
  }
  // U+FEFF is no space to Go: a page.
  const bom = await created(await create(repo, { title: '\ufeff', content_base64: b64('x') }, r.writer.auth), 'bom');
  assert.is(bom.sub_url, '%EF%BB%BF');
});

test('400: content that is not padded standard base64', async () => {
  for (const content of ['not base64!', 'YQ', 'YWJ', 'abc', '====', 'YQ=', 'YW Jj', 'YW-_', 'Y===', '%%%%']) {
    failed(await create(repo, { title: fresh('b'), content_base64: content }, r.writer.auth), 400, content, /base64/);
  }
});

test('400: reserved names; _Sidebar/_Footer and look-alikes are allowed', async () => {
  for (const title of ['_pages', '_new', '_edit', 'raw', '  raw  ']) {
    failed(await create(repo, { title, content_base64: b64('x') }, r.writer.auth), 400, title, /reserved/);
  }
  for (const title of ['Raw', 'raw.md', 'raw-page', '_page']) await created(await create(repo, { title, content_base64: b64('x') }, r.writer.auth), title);
});

test('400: the page exists (same web path, or a legacy file named after the web path)', async () => {
  const target = await repoFor(app, r);
  await created(await create(target, { title: 'Twice', content_base64: b64('1') }, r.writer.auth), 'first');
  failed(await create(target, { title: 'Twice', content_base64: b64('2') }, r.writer.auth), 400, 'again', /already exists/);
  failed(await create(target, { title: '  Twice ', content_base64: b64('2') }, r.writer.auth), 400, 'trimmed', /already exists/);
  // Gitea also counts `<web path>.md` as the page: put one there with git.
  commitTo(wikiOf(target), target.default_branch, { 'x-y+z.-.md': 'legacy' });
  failed(await create(target, { title: 'x-y z', content_base64: b64('new') }, r.writer.auth), 400, 'legacy', /already exists/);
  assert.equal(wikiFiles(target), ['Twice.md', 'x-y+z.-.md']);
  assert.is(gitRun(wikiOf(target), ['cat-file', 'blob', `${target.default_branch}:Twice.md`]), '1');
});

test('401: anonymous; 403: read-only collaborator, outsider, token without write:repository', async () => {
  const body = { title: fresh('p'), content_base64: b64('x') };
  failed(await create(repo, body), 401, 'anonymous');
  failed(await create(repo, body, r.reader.auth), 403, 'reader', /write/);
  failed(await create(repo, body, r.outsider.auth), 403, 'outsider');
  failed(await create(repo, body, await wrongScope(app, r.writer, true)), 403, 'read-only token', /scope/);
  await created(await create(repo, body, await app.token(r.writer, ['write:repository'])), 'write:repository token');
  await created(await create(repo, { ...body, title: fresh('p') }, r.admin.auth), 'site admin');
});

test('404: private repository the caller cannot see; wiki disabled or external', async () => {
  const priv = await repoFor(app, r, { private: true });
  failed(await create(priv, { title: 'p', content_base64: b64('x') }, r.outsider.auth), 404, 'outsider, private');
  failed(await create(priv, { title: 'p', content_base64: b64('x') }, r.reader.auth), 403, 'reader, private');
  await created(await create(priv, { title: 'p', content_base64: b64('x') }, r.writer.auth), 'writer, private');

  const off = await repoFor(app, r);
  const patch = (body: components['schemas']['EditRepoOption']) =>
    app.client(r.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(off) }, body });
  assert.is((await patch({ has_wiki: false })).response.status, 200);
  failed(await create(off, { title: 'p', content_base64: b64('x') }, r.owner.auth), 404, 'wiki disabled, owner');
  assert.not.ok(existsSync(wikiOf(off)));
  assert.is((await patch({ has_wiki: true, external_wiki: { external_wiki_url: 'https://wiki.example.com/' } })).response.status, 200);
  failed(await create(off, { title: 'p', content_base64: b64('x') }, r.owner.auth), 404, 'external wiki');
  assert.not.ok(existsSync(wikiOf(off)));
});

test('per-unit team rights (private org repository): wiki writers may create, code-only teams cannot see the wiki', async () => {
  const world = await orgWorld(app);
  const target = await orgRepo(app, world.name, world.owner, { auto_init: true, private: true });
  const ownerRow = await rowOf(app, world.owner);
  const wikiTeam = (await app.services.teams.create(world.org, { name: 'Wiki', permission: 'write', units: ['repo.wiki'], includesAllRepositories: true })).team;
  const scribe = await actor(app);
  await app.services.teams.addMember(wikiTeam, { user: ownerRow, isMember: true, isOwner: true }, await rowOf(app, scribe));
  await created(await create(target, { title: 'Team page', content_base64: b64('x') }, scribe.auth), 'wiki team');
  // The Readers team reads code and issues only: the wiki is invisible to it.
  failed(await create(target, { title: 'Other', content_base64: b64('x') }, world.reader.auth), 404, 'code-only reader');
  await created(await create(target, { title: 'Admin page', content_base64: b64('x') }, world.teamAdmin.auth), 'admin team');
});

test('423: archived repository, before the writer check', async () => {
  const target = await repoFor(app, r);
  await setArchived(app, target, r.owner);
  failed(await create(target, { title: 'p', content_base64: b64('x') }, r.owner.auth), 423, 'owner');
  failed(await create(target, { title: 'p', content_base64: b64('x') }, r.reader.auth), 423, 'reader');
  assert.not.ok(existsSync(wikiOf(target)));
});

test('422: a body the spec refuses; NUL in a field (the router\'s rule for every string)', async () => {
  const { owner, repo: name } = pathOf(repo);
  const path = `/repos/${owner}/${name}/wiki/new`;
  const wrongType = await raw(app, 'POST', path, { body: JSON.stringify({ title: 5 }), authorization: r.writer.auth });
  assert.is(wrongType.response.status, 422);
  assertSpecAnswer('repoCreateWikiPage', 422, wrongType.body);
  const nul = await raw(app, 'POST', path, { body: JSON.stringify({ title: 'a\u0000b', content_base64: '' }), authorization: r.writer.auth });
  assert.is(nul.response.status, 422);
  assertSpecAnswer('repoCreateWikiPage', 422, nul.body);
});

test.run();
