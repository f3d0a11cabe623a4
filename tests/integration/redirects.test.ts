// Old names of renamed and transferred repositories and renamed accounts (Gitea's redirects, #37): the API,
// git over HTTP and the pages answer 307 to the current name for a caller who may see it; chains resolve to
// the current name, a name taken again ends its redirect, and nobody learns a private repository's new name.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { repoRedirects } from '../../src/db/schema/index.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { assertNotRedirected, assertRedirects, unfollowed } from '../helpers/redirects.js';
import { actor, addCollaborator, fresh, getRepo, siteAdmin, userRepo, type Actor, type Repository } from '../helpers/repos.js';
import { runProgram } from '../helpers/spawnGit.js';

let app: TestApp;
let admin: Actor;
let alice: Actor;
let outsider: Actor;
const api = '/api/v1';

test.before(async () => {
  app = await startApp();
  admin = await siteAdmin(app);
  [alice, outsider] = await Promise.all([actor(app), actor(app)]);
});
test.after(async () => {
  await app.close();
});

async function renameRepo(owner: string, repo: string, name: string, auth = alice.auth): Promise<Repository> {
  const r = await app.client(auth).PATCH('/repos/{owner}/{repo}', { params: { path: { owner, repo } }, body: { name } });
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  return r.data!;
}

async function renameUser(from: string, to: string): Promise<void> {
  const r = await app.client(admin.auth).POST('/admin/users/{username}/rename', { params: { path: { username: from } }, body: { new_username: to } });
  assert.is(r.response.status, 204, JSON.stringify(r.error));
}

const redirectRows = (ownerId: number, lowerName: string) =>
  app.services.deps.db.select().from(repoRedirects).where(and(eq(repoRedirects.ownerId, ownerId), eq(repoRedirects.lowerName, lowerName)));

test('a renamed repository: every method of every repository route is sent to the new name, path and query kept', async () => {
  const repo = await userRepo(app, alice, { auto_init: true });
  const to = fresh('Renamed');
  await renameRepo(alice.username, repo.name, to);
  const o = alice.username;
  await assertRedirects(app, 'GET', `${api}/repos/${o}/${repo.name}`, `${api}/repos/${o}/${to}`, alice.auth);
  await assertRedirects(app, 'GET', `${api}/repos/${o}/${repo.name}/issues?state=all&page=2`, `${api}/repos/${o}/${to}/issues?state=all&page=2`, alice.auth);
  await assertRedirects(app, 'GET', `${api}/repos/${o}/${repo.name.toUpperCase()}/contents/README.md?ref=main`, `${api}/repos/${o}/${to}/contents/README.md?ref=main`);
  await assertRedirects(app, 'PATCH', `${api}/repos/${o}/${repo.name}`, `${api}/repos/${o}/${to}`, alice.auth, { description: 'x' });
  // Even a body the operation would refuse, as Gitea resolves the path first.
  await assertRedirects(app, 'PATCH', `${api}/repos/${o}/${repo.name}`, `${api}/repos/${o}/${to}`, alice.auth, { name: 'bad name!' });
  const malformed = await fetch(new URL(`api/v1/repos/${o}/${repo.name}`, app.config.rootUrl), {
    method: 'PATCH', redirect: 'manual', headers: { Authorization: alice.auth, 'Content-Type': 'application/json' }, body: '{"name":',
  });
  assert.is(malformed.status, 307, 'a body that is not JSON');
  assert.is(malformed.headers.get('location'), `${api}/repos/${o}/${to}`);
  await assertRedirects(app, 'DELETE', `${api}/repos/${o}/${repo.name}`, `${api}/repos/${o}/${to}`, alice.auth);
  // Anonymous callers of a public repository too, even for an operation that needs a sign-in (the new name answers 401).
  await assertRedirects(app, 'DELETE', `${api}/repos/${o}/${repo.name}`, `${api}/repos/${o}/${to}`);
  assert.is((await getRepo(app, o, to, alice.auth)).response.status, 200, 'the redirected DELETE deleted nothing');
  // A client that follows redirects (fetch, the Go SDK) reaches the repository; a PATCH is repeated with its body.
  const followed = await getRepo(app, o, repo.name, alice.auth);
  assert.is(followed.data!.id, repo.id);
  assert.is(followed.data!.name, to);
  const patched = await app.client(alice.auth).PATCH('/repos/{owner}/{repo}', { params: { path: { owner: o, repo: repo.name } }, body: { description: 'via the old name' } });
  assert.is(patched.response.status, 200);
  assert.is(patched.data!.description, 'via the old name');
  assert.is(patched.data!.name, to);
  // A name that never was is still 404, and so is a missing object under the old name's target.
  await assertNotRedirected(app, 'GET', `${api}/repos/${o}/${fresh('never')}`, 404, alice.auth);
  await assertNotRedirected(app, 'GET', `${api}/repos/${o}/${to}/issues/999`, 404, alice.auth);
});

test('a chain A → B → C leads straight to C; renaming back to A removes A\'s redirect and B and C lead to A', async () => {
  const repo = await userRepo(app, alice);
  const [a, b, c] = [repo.name, fresh('b'), fresh('c')];
  await renameRepo(alice.username, a, b);
  await renameRepo(alice.username, b, c);
  const o = alice.username;
  await assertRedirects(app, 'GET', `${api}/repos/${o}/${a}`, `${api}/repos/${o}/${c}`, alice.auth);
  await assertRedirects(app, 'GET', `${api}/repos/${o}/${b}`, `${api}/repos/${o}/${c}`, alice.auth);
  await renameRepo(alice.username, c, a);
  assert.is((await getRepo(app, o, a, alice.auth)).data!.id, repo.id);
  assert.is((await redirectRows(alice.id, a.toLowerCase())).length, 0, 'no stale row for the current name');
  await assertRedirects(app, 'GET', `${api}/repos/${o}/${b}`, `${api}/repos/${o}/${a}`, alice.auth);
  await assertRedirects(app, 'GET', `${api}/repos/${o}/${c}`, `${api}/repos/${o}/${a}`, alice.auth);
});

test('a repository created with a redirected name takes it: the redirect is gone for good', async () => {
  const first = await userRepo(app, alice);
  const moved = fresh('moved');
  await renameRepo(alice.username, first.name, moved);
  assert.is((await redirectRows(alice.id, first.name.toLowerCase())).length, 1);
  const second = await userRepo(app, alice, { name: first.name });
  assert.is((await redirectRows(alice.id, first.name.toLowerCase())).length, 0, 'creating the name removed the redirect');
  assert.is((await getRepo(app, alice.username, first.name, alice.auth)).data!.id, second.id);
  // Once the new repository moves away, the name leads to it, never back to the first one.
  const away = fresh('away');
  await renameRepo(alice.username, first.name, away);
  await assertRedirects(app, 'GET', `${api}/repos/${alice.username}/${first.name}`, `${api}/repos/${alice.username}/${away}`, alice.auth);
  // Deleting the target removes its redirects.
  assert.is((await app.client(alice.auth).DELETE('/repos/{owner}/{repo}', { params: { path: { owner: alice.username, repo: away } } })).response.status, 204);
  await assertNotRedirected(app, 'GET', `${api}/repos/${alice.username}/${first.name}`, 404, alice.auth);
});

test('a transferred repository: the old owner\'s name leads to the new owner', async () => {
  const bob = await actor(app);
  const repo = await userRepo(app, alice, { auto_init: true });
  const moved = await app.client(admin.auth).POST('/repos/{owner}/{repo}/transfer', { params: { path: { owner: alice.username, repo: repo.name } }, body: { new_owner: bob.username } });
  assert.is(moved.response.status, 202, JSON.stringify(moved.error));
  await assertRedirects(app, 'GET', `${api}/repos/${alice.username}/${repo.name}/branches?limit=1`, `${api}/repos/${bob.username}/${repo.name}/branches?limit=1`, bob.auth);
  // Alice creating that name again takes it back.
  const again = await userRepo(app, alice, { name: repo.name });
  assert.is((await getRepo(app, alice.username, repo.name, alice.auth)).data!.id, again.id);
});

test('a renamed user: /users/{old}… and the repositories under the old owner name lead to the new name', async () => {
  const carol = await actor(app);
  const repo = await userRepo(app, carol);
  const to = fresh('carol');
  await renameUser(carol.username, to);
  await assertRedirects(app, 'GET', `${api}/users/${carol.username}`, `${api}/users/${to}`);
  await assertRedirects(app, 'GET', `${api}/users/${carol.username}/repos?limit=5`, `${api}/users/${to}/repos?limit=5`, outsider.auth);
  await assertRedirects(app, 'GET', `${api}/repos/${carol.username}/${repo.name}/issues`, `${api}/repos/${to}/${repo.name}/issues`);
  const followed = await app.client().GET('/users/{username}', { params: { path: { username: carol.username } } });
  assert.is(followed.data!.id, carol.id);
  // Renamed again: the first name leads to the latest.
  const latest = fresh('carol');
  await renameUser(to, latest);
  await assertRedirects(app, 'GET', `${api}/users/${carol.username}`, `${api}/users/${latest}`);
  await assertRedirects(app, 'GET', `${api}/repos/${carol.username}/${repo.name}`, `${api}/repos/${latest}/${repo.name}`);
  // The renamed user's own repository rename under the old owner name: both redirects at once.
  const repoTo = fresh('r');
  await renameRepo(latest, repo.name, repoTo, admin.auth);
  await assertRedirects(app, 'GET', `${api}/repos/${carol.username}/${repo.name}`, `${api}/repos/${latest}/${repoTo}`);
});

test('privacy: a private repository\'s or account\'s old name tells nothing to whoever may not see it', async () => {
  const priv = await userRepo(app, alice, { private: true, auto_init: true });
  const reader = await actor(app);
  await addCollaborator(app, priv, reader, 'read');
  const to = fresh('secret');
  await renameRepo(alice.username, priv.name, to);
  const old = `${api}/repos/${alice.username}/${priv.name}`;
  await assertNotRedirected(app, 'GET', old, 404, outsider.auth);
  await assertNotRedirected(app, 'GET', old, 404);
  await assertNotRedirected(app, 'DELETE', old, 401);
  const body = await unfollowed(app, 'GET', old, outsider.auth);
  assert.not.match(body.body, to);
  await assertRedirects(app, 'GET', old, `${api}/repos/${alice.username}/${to}`, reader.auth);
  await assertRedirects(app, 'GET', old, `${api}/repos/${alice.username}/${to}`, admin.auth);
  // A private user's old name: only those who may see the account are redirected.
  const hidden = await actor(app, { visibility: 'private' });
  const hiddenTo = fresh('hidden');
  await renameUser(hidden.username, hiddenTo);
  await assertNotRedirected(app, 'GET', `${api}/users/${hidden.username}`, 404);
  await assertNotRedirected(app, 'GET', `${api}/users/${hidden.username}`, 404, outsider.auth);
  await assertRedirects(app, 'GET', `${api}/users/${hidden.username}`, `${api}/users/${hiddenTo}`, hidden.auth);
});

test('pages: /{owner}/{old} and /{old owner} lead to the current names', async () => {
  const repo = await userRepo(app, alice, { auto_init: true });
  const to = fresh('page');
  await renameRepo(alice.username, repo.name, to);
  await assertRedirects(app, 'GET', `/${alice.username}/${repo.name}/src/branch/main/README.md`, `/${alice.username}/${to}/src/branch/main/README.md`);
  const dave = await actor(app);
  const daveTo = fresh('dave');
  await renameUser(dave.username, daveTo);
  await assertRedirects(app, 'GET', `/${dave.username}`, `/${daveTo}`);
  const priv = await userRepo(app, alice, { private: true });
  const privTo = fresh('hushed');
  await renameRepo(alice.username, priv.name, privTo);
  await assertNotRedirected(app, 'GET', `/${alice.username}/${priv.name}`, 404, outsider.auth);
});

/** git with no configuration of the machine's, in `cwd`. */
async function git(cwd: string, args: string[]) {
  const env = {
    PATH: process.env.PATH ?? '', HOME: cwd, XDG_CONFIG_HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C',
    GIT_AUTHOR_NAME: 'Tester', GIT_AUTHOR_EMAIL: 'tester@example.com', GIT_COMMITTER_NAME: 'Tester', GIT_COMMITTER_EMAIL: 'tester@example.com',
  };
  const r = await runProgram('git', args, { cwd, env });
  return { code: r.code, stderr: r.stderr.toString('utf8') };
}

const gitUrl = (path: string, who?: Actor) => {
  const u = new URL(app.config.rootUrl);
  const creds = who ? `${encodeURIComponent(who.username)}:${encodeURIComponent(who.password)}@` : '';
  return `${u.protocol}//${creds}${u.host}/${path}`;
};

test('git over HTTP: clone, fetch and push at the old URL reach the renamed repository; an outsider is not told', async () => {
  const work = mkdtempSync(join(tmpdir(), 'anvil-redirect-'));
  const pub = await userRepo(app, alice, { auto_init: true });
  const pubTo = fresh('cloned');
  await renameRepo(alice.username, pub.name, pubTo);
  const info = await unfollowed(app, 'GET', `/${alice.username}/${pub.name}.git/info/refs?service=git-upload-pack`);
  assert.is(info.status, 307);
  assert.is(info.location, `/${alice.username}/${pubTo}.git/info/refs?service=git-upload-pack`);
  const anon = await git(work, ['clone', '-q', gitUrl(`${alice.username}/${pub.name}.git`), 'anon']);
  assert.is(anon.code, 0, anon.stderr);
  assert.match(readFileSync(join(work, 'anon', 'README.md'), 'utf8'), pub.name);

  // A private repository: git is asked for credentials first, then sent on; it pushes through the old URL.
  const priv = await userRepo(app, alice, { auto_init: true, private: true });
  const privTo = fresh('hidden');
  await renameRepo(alice.username, priv.name, privTo);
  const challenge = await unfollowed(app, 'GET', `/${alice.username}/${priv.name}.git/info/refs?service=git-upload-pack`);
  assert.is(challenge.status, 401, 'anonymous: the same challenge as for any repository it cannot read');
  assert.is(challenge.location, null);
  const old = gitUrl(`${alice.username}/${priv.name}.git`, alice);
  const cloned = await git(work, ['clone', '-q', old, 'priv']);
  assert.is(cloned.code, 0, cloned.stderr);
  writeFileSync(join(work, 'priv', 'pushed.txt'), 'through the old URL\n');
  assert.is((await git(join(work, 'priv'), ['add', 'pushed.txt'])).code, 0);
  assert.is((await git(join(work, 'priv'), ['commit', '-q', '-m', 'old url'])).code, 0);
  const pushed = await git(join(work, 'priv'), ['push', '-q', old, 'HEAD:main']);
  assert.is(pushed.code, 0, pushed.stderr);
  const branch = await app.client(alice.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { owner: alice.username, repo: privTo, branch: 'main' } } });
  assert.is(branch.data!.commit.message.trim(), 'old url');
  // Someone who cannot read it gets what a missing repository gives, and no new name.
  const refused = await git(work, ['clone', '-q', gitUrl(`${alice.username}/${priv.name}.git`, outsider), 'nope']);
  assert.is.not(refused.code, 0);
  assert.not.match(refused.stderr, privTo);
  const outsiderInfo = await unfollowed(app, 'GET', `/${alice.username}/${priv.name}.git/info/refs?service=git-upload-pack`, outsider.basic);
  assert.is(outsiderInfo.status, 404);
  assert.is(outsiderInfo.location, null);
});

test.run();
