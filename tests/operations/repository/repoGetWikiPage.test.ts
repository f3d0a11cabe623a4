import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { commitTo, getVerbatim, gitRun, identity, repoFor, roles, setArchived, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { orgRepo, orgWorld, pathOf, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type WikiPage = components['schemas']['WikiPage'];

let app: TestApp;
let r: Roles;
let repo: Repository; // public; pages made in before()
let home: WikiPage;

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const wikiOf = (target: Repository) => {
  const { owner, repo: name } = pathOf(target);
  return join(app.config.dataDir, 'repositories', owner.toLowerCase(), `${name.toLowerCase()}.wiki.git`);
};

async function createPage(target: Repository, title: string, content = title): Promise<WikiPage> {
  const res = await app.client(r.owner.auth).POST('/repos/{owner}/{repo}/wiki/new', {
    params: { path: pathOf(target) },
    body: { title, content_base64: b64(content) },
  });
  assert.is(res.response.status, 201, `create ${title}: ${JSON.stringify(res.error)}`);
  return res.data!;
}

/** GET through the typed client: `pageName` is sent percent-encoded, as OpenAPI clients do. */
const get = (target: Repository, pageName: string, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/wiki/page/{pageName}', { params: { path: { ...pathOf(target), pageName } } });

/** GET with the page name placed in the URL exactly as given (as Gitea's web links and string-built URLs do). */
async function getAsSent(target: Repository, segment: string, authorization?: string) {
  const { owner, repo: name } = pathOf(target);
  const res = await getVerbatim(app, `/repos/${owner}/${name}/wiki/page/${segment}`, authorization);
  const body = res.body ? JSON.parse(res.body) : undefined;
  assertSpecAnswer('repoGetWikiPage', res.status, body);
  return { status: res.status, body: body as WikiPage | undefined };
}

async function found(res: Awaited<ReturnType<typeof get>>, label: string): Promise<WikiPage> {
  assert.is(res.response.status, 200, `${label}: ${JSON.stringify(res.error)}`);
  assertSpec('repoGetWikiPage', res);
  return res.data!;
}

function missing(res: Awaited<ReturnType<typeof get>>, label: string) {
  assert.is(res.response.status, 404, label);
  assertSpec('repoGetWikiPage', res);
}

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  repo = await repoFor(app, r);
  home = await createPage(repo, 'New page', '# Welcome\n');
  for (const title of ['&&&&', '2000-01-02 meeting', 'a+b', '100%', 'Grüße']) await createPage(repo, title);
});
test.after(async () => {
  await app.close();
});

test('200: anonymous reads a page of a public repository; the answer is the one create gave', async () => {
  const page = await found(await get(repo, 'New-page'), 'anonymous');
  assert.equal(page, home);
  assert.is(page.title, 'New page');
  assert.is(page.sub_url, 'New-page');
  assert.is(page.html_url, `${repo.html_url}/wiki/New-page`);
  assert.is(Buffer.from(page.content_base64, 'base64').toString(), '# Welcome\n');
  assert.ok('commiter' in page.last_commit && !('committer' in page.last_commit));
  for (const who of [r.reader, r.outsider, r.writer, r.owner, r.admin]) assert.equal(await found(await get(repo, 'New-page', who.auth), who.username), home);
});

test('200: the sub_url names the page, escaped or not, encoded by the client or sent as is', async () => {
  const cases: Array<[string, string, string[]]> = [
    // [title, sub_url, other spellings of the segment as sent]
    ['&&&&', '%26%26%26%26', ['&&&&', '%26&%26&']],
    ['2000-01-02 meeting', '2000-01-02+meeting.-', ['2000-01-02%20meeting.-', '2000%2D01-02+meeting.-']],
    ['a+b', 'a%2Bb', []],
    ['100%', '100%25', []],
    ['Grüße', 'Gr%C3%BC%C3%9Fe', ['Grüße'.normalize('NFC')]],
    ['New page', 'New-page', ['New%2Dpage', 'New-page.md', 'New%20page']],
  ];
  for (const [title, sub, spellings] of cases) {
    const typed = await found(await get(repo, sub), `${title}: typed client`);
    assert.is(typed.sub_url, sub, title);
    assert.is(typed.title, title, title);
    assert.is(Buffer.from(typed.content_base64, 'base64').toString(), title === 'New page' ? '# Welcome\n' : title);
    const asSent = await getAsSent(repo, sub);
    assert.is(asSent.status, 200, `${title}: sub_url as sent`);
    assert.equal(asSent.body, typed, `${title}: sub_url as sent`);
    for (const s of spellings) {
      const other = await getAsSent(repo, s.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c)));
      assert.is(other.status, 200, `${title}: ${s}`);
      assert.is(other.body!.last_commit.sha, typed.last_commit.sha, `${title}: ${s}`);
      assert.is(other.body!.content_base64, typed.content_base64, `${title}: ${s}`);
    }
  }
  // The title, as the typed client sends it, also works where escaping is a no-op round trip.
  assert.is((await found(await get(repo, '&&&&'), '&&&& typed')).sub_url, '%26%26%26%26');
});

test('200: last_commit is the newest commit touching the page; commit_count counts only those', async () => {
  const target = await repoFor(app, r);
  await createPage(target, 'Log');
  const dir = wikiOf(target);
  const branch = target.default_branch;
  const t1 = new Date('2024-05-06T07:08:09Z');
  const edit = commitTo(dir, branch, { 'Log.md': 'v2' }, { message: 'second\n', date: t1 });
  commitTo(dir, branch, { 'Other.md': 'o' }, { message: 'other\n' });
  const page = await found(await get(target, 'Log'), 'log');
  assert.is(page.commit_count, 2);
  assert.is(page.last_commit.sha, edit);
  assert.is(page.last_commit.message, 'second\n');
  assert.equal(page.last_commit.author, { name: identity.name, email: identity.email, date: '2024-05-06T07:08:09Z' });
  assert.equal(page.last_commit.commiter, page.last_commit.author);
  assert.is(Buffer.from(page.content_base64, 'base64').toString(), 'v2');
  assert.is((await found(await get(target, 'Other'), 'other')).commit_count, 1);
});

test('200: sidebar and footer from _Sidebar.md and _Footer.md; empty without them', async () => {
  const target = await repoFor(app, r);
  await createPage(target, 'Page');
  assert.is((await found(await get(target, 'Page'), 'none')).sidebar, '');
  commitTo(wikiOf(target), target.default_branch, { '_Sidebar.md': 'side', '_Footer.md': Buffer.from([0, 1, 2]) });
  const page = await found(await get(target, 'Page'), 'both');
  assert.is(page.sidebar, b64('side'));
  assert.is(page.footer, b64(Buffer.from([0, 1, 2])));
  const sidebar = await found(await get(target, '_Sidebar'), 'the sidebar itself');
  assert.is(sidebar.content_base64, b64('side'));
});

test('200: files pushed with git: unescaped legacy names, sub-folders, `.md` names', async () => {
  const target = await repoFor(app, r);
  await createPage(target, 'Start');
  commitTo(wikiOf(target), target.default_branch, { '&&.md': 'legacy', 'sub/page.md': 'nested', 'My Page.md': 'spaced' });
  const legacy = await found(await get(target, '%26%26'), 'legacy');
  assert.is(Buffer.from(legacy.content_base64, 'base64').toString(), 'legacy');
  assert.is(legacy.sub_url, '%26%26');
  assert.is(legacy.title, '&&');
  const nested = await getAsSent(target, 'sub%2Fpage');
  assert.is(nested.status, 200);
  assert.is(nested.body!.sub_url, 'sub/page');
  assert.is(Buffer.from(nested.body!.content_base64, 'base64').toString(), 'nested');
  assert.is((await found(await get(target, 'sub/page'), 'nested, typed')).sub_url, 'sub/page');
  const byFile = await found(await get(target, 'My Page.md'), '.md name');
  assert.is(Buffer.from(byFile.content_base64, 'base64').toString(), 'spaced');
  assert.is((await found(await get(target, 'Start.md'), 'Start.md')).sub_url, 'Start');
});

test('404: no such page, no wiki yet, a folder, glob-looking names, paths out of the tree', async () => {
  missing(await get(repo, 'Nope'), 'missing page');
  missing(await get(repo, 'new-page'), 'names are case-sensitive');
  const fresh = await repoFor(app, r);
  missing(await get(fresh, 'Home'), 'no wiki repository');
  const target = await repoFor(app, r);
  await createPage(target, 'Start');
  commitTo(wikiOf(target), target.default_branch, { 'dir/a.md': 'a' });
  for (const name of ['dir', 'dir.md', '*', '*.md', '[S]tart.md', 'St?rt.md', ':(glob)*.md', ':/Start.md', '_pages', 'raw']) {
    missing(await get(target, name), name);
  }
  const { repo: name } = pathOf(target);
  for (const seg of ['..%2F..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd.md', `..%2F${name}.git%2FHEAD`, `..%2F..%2F${name}.git%2Fconfig.md`, '%2E%2E', '..%5C..%5Cx.md']) {
    const res = await getAsSent(target, seg);
    assert.is(res.status, 404, seg);
  }
  // A `.md` name is cleaned into the tree: climbing out lands back on the wiki's own files.
  const inside = await getAsSent(target, '..%2F..%2FStart.md');
  assert.is(inside.status, 200);
  assert.is(inside.body!.sub_url, 'Start');
});

test('404: private repository for anonymous and outsiders; 200 for its reader', async () => {
  const priv = await repoFor(app, r, { private: true });
  await createPage(priv, 'Secret');
  missing(await get(priv, 'Secret'), 'anonymous');
  missing(await get(priv, 'Secret', r.outsider.auth), 'outsider');
  assert.is((await found(await get(priv, 'Secret', r.reader.auth), 'reader')).title, 'Secret');
});

test('404: wiki disabled or external, even for the owner; pages come back when it is enabled again', async () => {
  const target = await repoFor(app, r);
  await createPage(target, 'Kept');
  const patch = (body: components['schemas']['EditRepoOption']) =>
    app.client(r.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(target) }, body });
  assert.is((await patch({ has_wiki: false })).response.status, 200);
  missing(await get(target, 'Kept', r.owner.auth), 'disabled');
  assert.is((await patch({ has_wiki: true, external_wiki: { external_wiki_url: 'https://wiki.example.com/' } })).response.status, 200);
  missing(await get(target, 'Kept', r.owner.auth), 'external');
  assert.is((await patch({ has_wiki: true, external_wiki: null })).response.status, 200);
  await found(await get(target, 'Kept', r.owner.auth), 'enabled again');
});

test('404: a team that reads code only cannot see the wiki of a private organization repository', async () => {
  const world = await orgWorld(app);
  const target = await orgRepo(app, world.name, world.owner, { auto_init: true, private: true });
  const res = await app.client(world.owner.auth).POST('/repos/{owner}/{repo}/wiki/new', {
    params: { path: pathOf(target) },
    body: { title: 'Org page', content_base64: b64('o') },
  });
  assert.is(res.response.status, 201);
  await found(await get(target, 'Org-page', world.teamAdmin.auth), 'admin team');
  missing(await get(target, 'Org-page', world.reader.auth), 'code-only reader');
});

test('200: archived repositories stay readable; 403: a token without read:repository', async () => {
  const target = await repoFor(app, r);
  await createPage(target, 'Old');
  await setArchived(app, target, r.owner);
  await found(await get(target, 'Old', r.reader.auth), 'archived');
  const res = await get(target, 'Old', await wrongScope(app, r.reader, false));
  assert.is(res.response.status, 403);
  assertSpec('repoGetWikiPage', res);
  await found(await get(target, 'Old', await app.token(r.reader, ['read:repository'])), 'read:repository token');
});

test.run();
