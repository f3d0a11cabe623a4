// The wiki's git transport: `<repo>.wiki.git` clones and pushes over smart HTTP with the wiki unit's
// permissions; a page pushed with git is a page of the API; a wiki without a repository is made by its
// first push.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gitWorkspace } from '../helpers/events.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo, type Actor, type Repository } from '../helpers/repos.js';

let app: TestApp;
let owner: Actor;
let reader: Actor;
let outsider: Actor;
let pub: Repository;
let priv: Repository;
let ws: ReturnType<typeof gitWorkspace>;
const b64 = (s: string) => Buffer.from(s).toString('base64');

test.before(async () => {
  app = await startApp();
  [owner, reader, outsider] = [await actor(app), await actor(app), await actor(app)];
  pub = await userRepo(app, owner, { auto_init: true });
  priv = await userRepo(app, owner, { auto_init: true, private: true });
  for (const repo of [pub, priv]) {
    const page = await app.client(owner.auth).POST('/repos/{owner}/{repo}/wiki/new', { params: { path: { owner: owner.username, repo: repo.name } }, body: { title: 'Home', content_base64: b64('# Home\n') } });
    assert.is(page.response.status, 201);
  }
  const added = await app.client(owner.auth).PUT('/repos/{owner}/{repo}/collaborators/{collaborator}', { params: { path: { owner: owner.username, repo: priv.name, collaborator: reader.username } }, body: { permission: 'read' } });
  assert.is(added.response.status, 204);
  ws = gitWorkspace(app);
});
test.after(async () => {
  ws.close();
  await app.close();
});

const wikiUrl = (repo: Repository, who?: Actor) => `${who ? ws.remote(who, owner.username, repo.name) : `${app.url}/${owner.username}/${repo.name}.git`}`.replace(/\.git$/, '.wiki.git');
let n = 0;
const fresh = () => join(ws.root, `w${n++}`);

test('the owner clones the wiki, pushes a page, and the API shows it', async () => {
  const dir = fresh();
  const clone = await ws.run(['clone', '-q', wikiUrl(priv, owner), dir]);
  assert.is(clone.code, 0, clone.stderr);
  assert.is(readFileSync(join(dir, 'Home.md'), 'utf8'), '# Home\n');
  writeFileSync(join(dir, 'Pushed-Page.md'), 'from git\n');
  await ws.must(['add', 'Pushed-Page.md'], dir);
  await ws.must(['commit', '-q', '-m', 'a page over git'], dir);
  const push = await ws.run(['push', '-q', 'origin', 'HEAD'], dir);
  assert.is(push.code, 0, push.stderr);
  const page = await app.client(owner.auth).GET('/repos/{owner}/{repo}/wiki/page/{pageName}', { params: { path: { owner: owner.username, repo: priv.name, pageName: 'Pushed-Page' } } });
  assert.is(page.response.status, 200);
  assert.is(Buffer.from(page.data!.content_base64!, 'base64').toString(), 'from git\n');
  // The code repository did not move: a wiki push is no code push.
  const branch = await app.client(owner.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { owner: owner.username, repo: priv.name, branch: 'main' } } });
  assert.is.not(branch.data!.commit.message.trim(), 'a page over git');
});

test('wiki permissions: a reader clones but cannot push; an outsider and anonymous see no private wiki; anonymous clones a public one but cannot push', async () => {
  const r = fresh();
  assert.is((await ws.run(['clone', '-q', wikiUrl(priv, reader), r])).code, 0);
  await ws.must(['commit', '-q', '--allow-empty', '-m', 'x'], r);
  const refused = await ws.run(['push', '-q', 'origin', 'HEAD'], r);
  assert.is.not(refused.code, 0);
  assert.match(refused.stderr, /403|denied|wiki/i);
  assert.is.not((await ws.run(['clone', '-q', wikiUrl(priv, outsider), fresh()])).code, 0);
  assert.is.not((await ws.run(['clone', '-q', wikiUrl(priv), fresh()])).code, 0);
  const anon = fresh();
  assert.is((await ws.run(['clone', '-q', wikiUrl(pub), anon])).code, 0, 'a public wiki');
  await ws.must(['commit', '-q', '--allow-empty', '-m', 'x'], anon);
  assert.is.not((await ws.run(['push', '-q', 'origin', 'HEAD'], anon)).code, 0);
});

test('a wiki without pages: fetching is not found, the first push makes it; a switched-off wiki is not found', async () => {
  const bare = await userRepo(app, owner, { auto_init: true });
  assert.is.not((await ws.run(['ls-remote', wikiUrl(bare, owner)])).code, 0);
  const res = await fetch(`${app.url}/${owner.username}/${bare.name}.wiki.git/info/refs?service=git-upload-pack`, { headers: { Authorization: owner.auth } });
  assert.is(res.status, 404);
  const dir = fresh();
  await ws.must(['init', '-q', '-b', 'main', dir]);
  writeFileSync(join(dir, 'Home.md'), 'first\n');
  await ws.must(['add', 'Home.md'], dir);
  await ws.must(['commit', '-q', '-m', 'first page'], dir);
  const push = await ws.run(['push', '-q', wikiUrl(bare, owner), 'HEAD:refs/heads/main'], dir);
  assert.is(push.code, 0, push.stderr);
  const page = await app.client(owner.auth).GET('/repos/{owner}/{repo}/wiki/page/{pageName}', { params: { path: { owner: owner.username, repo: bare.name, pageName: 'Home' } } });
  assert.is(page.response.status, 200);
  assert.is(Buffer.from(page.data!.content_base64!, 'base64').toString(), 'first\n');
  await app.client(owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: { owner: owner.username, repo: bare.name } }, body: { has_wiki: false } });
  assert.is.not((await ws.run(['ls-remote', wikiUrl(bare, owner)])).code, 0);
});

test.run();
