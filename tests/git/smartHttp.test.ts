// git clone/fetch/push over HTTP with the real `git` CLI against the running app: credentials in the
// URL (no credential helper, no prompt), the API's permission model, and what a push changes.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, addCollaborator, existsSync, getRepo, pathOf, repoFolder, userRepo, type Actor, type Repository } from '../helpers/repos.js';

let app: TestApp;
let owner: Actor;
let stranger: Actor;
let reader: Actor;
let pub: Repository;
let priv: Repository;
let work: string;
let gitEnv: NodeJS.ProcessEnv;

test.before(async () => {
  app = await startApp();
  [owner, stranger, reader] = await Promise.all([actor(app), actor(app), actor(app)]);
  [pub, priv] = await Promise.all([
    userRepo(app, owner, { auto_init: true }),
    userRepo(app, owner, { auto_init: true, private: true }),
  ]);
  await addCollaborator(app, priv, reader, 'read');
  work = mkdtempSync(join(tmpdir(), 'anvil-git-'));
  const home = join(work, 'home');
  mkdirSync(home);
  gitEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    LC_ALL: 'C',
    GIT_AUTHOR_NAME: 'Tester',
    GIT_AUTHOR_EMAIL: 'tester@example.com',
    GIT_COMMITTER_NAME: 'Tester',
    GIT_COMMITTER_EMAIL: 'tester@example.com',
  };
});
test.after(async () => {
  await app.close();
  rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the git CLI (never blocking the event loop: the server answering it lives in this process). */
function git(args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      ['-c', 'credential.helper=', '-c', 'init.defaultBranch=main', '-c', 'advice.detachedHead=false', ...args],
      { cwd: opts.cwd ?? work, env: { ...gitEnv, ...opts.env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
    child.stdin!.on('error', () => {}); // git may exit before reading its input
    child.stdin!.end(opts.input ?? '');
  });
}

async function ok(args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<string> {
  const r = await git(args, opts);
  assert.is(r.code, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function refused(args: string[], opts: { cwd?: string } = {}): Promise<Run> {
  const r = await git(args, opts);
  assert.is.not(r.code, 0, `git ${args.join(' ')} should fail`);
  return r;
}

const port = () => new URL(app.url).port;
/** The clone URL, with credentials embedded when given (a password or a token). */
function urlOf(repo: Repository | string, who?: { username: string; secret: string }, dotGit = true): string {
  const full = typeof repo === 'string' ? repo : repo.full_name;
  const cred = who ? `${encodeURIComponent(who.username)}:${encodeURIComponent(who.secret)}@` : '';
  return `http://${cred}127.0.0.1:${port()}/${full}${dotGit ? '.git' : ''}`;
}
const withPassword = (a: Actor) => ({ username: a.username, secret: a.password });
const tokenOf = (a: Actor) => a.auth.replace(/^token /, '');

let n = 0;
const dirName = (label: string) => join(work, `${label}-${n++}`);

async function commitFile(dir: string, file: string, content: string | Buffer, message = `add ${file}`): Promise<string> {
  writeFileSync(join(dir, file), content);
  await ok(['add', file], { cwd: dir });
  await ok(['commit', '-q', '-m', message], { cwd: dir });
  return (await ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
}

function infoRefs(repo: Repository | string, service: string, headers: Record<string, string> = {}) {
  const full = typeof repo === 'string' ? repo : repo.full_name;
  return fetch(`${app.url}/${full}.git/info/refs?service=${service}`, { headers });
}

async function bareHas(repo: Repository, sha: string): Promise<boolean> {
  const { owner: o, repo: r } = pathOf(repo);
  return (await git(['--git-dir', repoFolder(app, o, r), 'cat-file', '-e', `${sha}^{commit}`])).code === 0;
}

test('anonymous callers clone a public repository, with and without .git', async () => {
  const a = dirName('pub');
  await ok(['clone', '-q', urlOf(pub), a]);
  assert.ok(existsSync(join(a, 'README.md')));
  const b = dirName('pub');
  await ok(['clone', '-q', urlOf(pub, undefined, false), b]);
  assert.ok(existsSync(join(b, 'README.md')));
});

test('a private repository: anonymous is asked for credentials, the owner clones with a password or a token', async () => {
  const r = await refused(['clone', '-q', urlOf(priv), dirName('priv')]);
  assert.match(r.stderr, /could not read Username|Authentication failed/);
  const res = await infoRefs(priv, 'git-upload-pack');
  assert.is(res.status, 401);
  assert.is(res.headers.get('www-authenticate'), 'Basic realm="anvil"');
  // Anonymous callers learn nothing about which repositories exist.
  const missing = await infoRefs(`${owner.username}/no-such-repo`, 'git-upload-pack');
  assert.is(missing.status, 401);

  const a = dirName('priv');
  await ok(['clone', '-q', urlOf(priv, withPassword(owner)), a]);
  assert.ok(existsSync(join(a, 'README.md')));
  const b = dirName('priv');
  await ok(['clone', '-q', urlOf(priv, { username: owner.username, secret: tokenOf(owner) }), b]);
  assert.ok(existsSync(join(b, 'README.md')));
  // `Authorization: token …` works too.
  const byToken = await infoRefs(priv, 'git-upload-pack', { Authorization: owner.auth });
  assert.is(byToken.status, 200);
  assert.is(byToken.headers.get('content-type'), 'application/x-git-upload-pack-advertisement');
  assert.is(byToken.headers.get('cache-control')?.startsWith('no-cache'), true);
});

test('wrong credentials are 401 with WWW-Authenticate', async () => {
  const basic = `Basic ${Buffer.from(`${owner.username}:wrong-password`).toString('base64')}`;
  const res = await infoRefs(pub, 'git-upload-pack', { Authorization: basic });
  assert.is(res.status, 401);
  assert.is(res.headers.get('www-authenticate'), 'Basic realm="anvil"');
  // git sends the URL's credentials once the server asks for them: a private repository does.
  const r = await refused(['clone', '-q', urlOf(priv, { username: owner.username, secret: 'wrong-password' }), dirName('wrong')]);
  assert.match(r.stderr, /Authentication failed/);
});

test('a stranger: a private repository is 404, a public one clones but refuses pushes', async () => {
  const hidden = await infoRefs(priv, 'git-upload-pack', { Authorization: stranger.auth });
  assert.is(hidden.status, 404);
  await refused(['clone', '-q', urlOf(priv, withPassword(stranger)), dirName('hidden')]);

  const dir = dirName('strange');
  await ok(['clone', '-q', urlOf(pub, withPassword(stranger)), dir]);
  await commitFile(dir, 'intruder.txt', 'hello\n');
  const push = await refused(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
  assert.match(push.stderr, /permission denied/i);
  const res = await infoRefs(pub, 'git-receive-pack', { Authorization: stranger.auth });
  assert.is(res.status, 403);
  assert.is(res.headers.get('content-type'), 'text/plain; charset=utf-8');
  // Anonymous pushes are asked for credentials, even to a public repository.
  const anon = await infoRefs(pub, 'git-receive-pack');
  assert.is(anon.status, 401);
  assert.is(anon.headers.get('www-authenticate'), 'Basic realm="anvil"');
});

test('the owner pushes commits and a new branch: git and the repository row follow', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const before = (await getRepo(app, owner.username, pathOf(repo).repo, owner.auth)).data!;
  assert.is(before.branch_count, 1);
  const dir = dirName('own');
  await ok(['clone', '-q', urlOf(repo, withPassword(owner)), dir]);
  const onMain = await commitFile(dir, 'a.txt', 'a\n');
  await ok(['push', '-q', 'origin', 'main'], { cwd: dir });
  await ok(['checkout', '-q', '-b', 'feature'], { cwd: dir });
  const onFeature = await commitFile(dir, 'b.txt', 'b\n');
  await ok(['push', '-q', 'origin', 'feature'], { cwd: dir });
  assert.ok(await bareHas(repo, onMain));
  assert.ok(await bareHas(repo, onFeature));
  const after = (await getRepo(app, owner.username, pathOf(repo).repo, owner.auth)).data!;
  assert.is(after.empty, false);
  assert.is(after.branch_count, 2);
  assert.is(after.default_branch, 'main');
  assert.ok(after.updated_at >= before.updated_at);

  // A deleted branch is counted away.
  await ok(['push', '-q', 'origin', ':feature'], { cwd: dir });
  assert.is((await getRepo(app, owner.username, pathOf(repo).repo, owner.auth)).data!.branch_count, 1);
  // Fetching what was pushed from another clone.
  const other = dirName('own');
  await ok(['clone', '-q', urlOf(repo, withPassword(owner)), other]);
  assert.is((await ok(['rev-parse', 'HEAD'], { cwd: other })).trim(), onMain);
});

test('the first push into an empty repository makes the pushed branch the default', async () => {
  const repo = await userRepo(app, owner, { auto_init: false, default_branch: 'main' });
  assert.is(repo.empty, true);
  const dir = dirName('empty');
  const clone = await git(['clone', '-q', urlOf(repo, withPassword(owner)), dir]);
  assert.is(clone.code, 0, clone.stderr);
  await ok(['checkout', '-q', '-b', 'trunk'], { cwd: dir });
  const sha = await commitFile(dir, 'first.txt', 'first\n');
  await ok(['push', '-q', 'origin', 'trunk'], { cwd: dir });
  const after = (await getRepo(app, owner.username, pathOf(repo).repo, owner.auth)).data!;
  assert.is(after.empty, false);
  assert.is(after.default_branch, 'trunk');
  assert.is(after.branch_count, 1);
  assert.ok(await bareHas(repo, sha));
  const again = dirName('empty');
  await ok(['clone', '-q', urlOf(repo, withPassword(owner)), again]);
  assert.is((await ok(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: again })).trim(), 'trunk');
});

test('an empty repository keeps its configured default branch when that is pushed too', async () => {
  const repo = await userRepo(app, owner, { auto_init: false, default_branch: 'develop' });
  const dir = dirName('empty2');
  await ok(['init', '-q', dir]);
  await commitFile(dir, 'x.txt', 'x\n');
  await ok(['branch', 'develop'], { cwd: dir });
  await ok(['push', '-q', urlOf(repo, withPassword(owner)), 'main', 'develop'], { cwd: dir });
  const after = (await getRepo(app, owner.username, pathOf(repo).repo, owner.auth)).data!;
  assert.is(after.default_branch, 'develop');
  assert.is(after.branch_count, 2);
});

test('a read collaborator fetches a private repository but cannot push', async () => {
  const dir = dirName('reader');
  await ok(['clone', '-q', urlOf(priv, withPassword(reader)), dir]);
  await ok(['fetch', '-q', 'origin'], { cwd: dir });
  await commitFile(dir, 'r.txt', 'r\n');
  const push = await refused(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
  assert.match(push.stderr, /permission denied/i);
  const res = await infoRefs(priv, 'git-receive-pack', { Authorization: reader.auth });
  assert.is(res.status, 403);
});

test('a token without write:repository clones but cannot push', async () => {
  const readOnly = (await app.token(owner, ['read:repository'])).replace(/^token /, '');
  const dir = dirName('scoped');
  await ok(['clone', '-q', urlOf(pub, { username: owner.username, secret: readOnly }), dir]);
  await commitFile(dir, 's.txt', 's\n');
  const push = await refused(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
  assert.match(push.stderr, /write:repository/);
  const noRepoScope = await app.token(owner, ['read:user']);
  assert.is((await infoRefs(pub, 'git-upload-pack', { Authorization: noRepoScope })).status, 403);
});

test('an archived repository clones but refuses pushes with a message git shows', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const edit = await app.client(owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(repo) }, body: { archived: true } });
  assert.is(edit.response.status, 200);
  const dir = dirName('archived');
  await ok(['clone', '-q', urlOf(repo, withPassword(owner)), dir]);
  await commitFile(dir, 'late.txt', 'late\n');
  const push = await refused(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
  assert.match(push.stderr, /archived/);
  assert.is((await infoRefs(repo, 'git-receive-pack', { Authorization: owner.auth })).status, 403);
});

test('protocol v2 and v0: advertisements and clones', async () => {
  const v0 = await (await infoRefs(pub, 'git-upload-pack')).text();
  assert.ok(v0.startsWith('001e# service=git-upload-pack\n0000'), v0.slice(0, 60));
  const v2 = await (await infoRefs(pub, 'git-upload-pack', { 'Git-Protocol': 'version=2' })).text();
  assert.ok(v2.startsWith('000eversion 2\n'), v2.slice(0, 60));
  const push = await (await infoRefs(pub, 'git-receive-pack', { Authorization: owner.auth })).text();
  assert.ok(push.startsWith('001f# service=git-receive-pack\n0000'), push.slice(0, 60));

  for (const version of ['2', '0']) {
    const dir = dirName(`v${version}`);
    const r = await git(['-c', `protocol.version=${version}`, 'clone', '-q', urlOf(pub), dir], { env: { GIT_TRACE_PACKET: '1' } });
    assert.is(r.code, 0, r.stderr);
    assert.ok(existsSync(join(dir, 'README.md')));
    if (version === '2') assert.match(r.stderr, /version 2/);
    else assert.not.match(r.stderr, /< version 2/);
  }
});

test('gzip-compressed request bodies and large chunked pushes stream through', async () => {
  const repo = await userRepo(app, owner, { auto_init: true });
  const dir = dirName('big');
  await ok(['clone', '-q', urlOf(repo, withPassword(owner)), dir]);
  // A few hundred KB of incompressible files, sent in chunks (postBuffer is smaller than the pack).
  for (let i = 0; i < 6; i++) writeFileSync(join(dir, `blob${i}.bin`), randomBytes(64 * 1024));
  await ok(['add', '.'], { cwd: dir });
  await ok(['commit', '-q', '-m', 'big'], { cwd: dir });
  // Many branches on distinct commits (one fast-import): a fetch negotiation larger than 1 KiB, which git gzips.
  const head = (await ok(['rev-parse', 'main'], { cwd: dir })).trim();
  const stream = Array.from({ length: 40 }, (_, i) =>
    `commit refs/heads/b${i}\ncommitter Tester <tester@example.com> ${1700000000 + i} +0000\ndata ${`c${i}`.length}\nc${i}\nfrom ${head}\n\n`).join('');
  await ok(['fast-import', '--quiet'], { cwd: dir, input: stream });
  const push = await git(['-c', 'http.postBuffer=65536', 'push', '-q', 'origin', '--all'], { cwd: dir, env: { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' } });
  assert.is(push.code, 0, push.stderr.slice(-2000));
  assert.match(push.stderr, /Transfer-Encoding: chunked/i);
  assert.is((await getRepo(app, owner.username, pathOf(repo).repo, owner.auth)).data!.branch_count, 41);

  const clone = dirName('big');
  const r = await git(['-c', 'protocol.version=0', 'clone', '-q', urlOf(repo, withPassword(owner)), clone], { env: { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' } });
  assert.is(r.code, 0, r.stderr.slice(-2000));
  assert.match(r.stderr, /Content-Encoding: gzip/i);
  assert.is((await ok(['rev-parse', 'origin/b39'], { cwd: clone })).trim(), (await ok(['rev-parse', 'b39'], { cwd: dir })).trim());

  // The same by hand: a gzipped v0 upload-pack request answers a pack.
  const pkt = (s: string) => (s.length + 4).toString(16).padStart(4, '0') + s;
  const body = gzipSync(Buffer.from(`${pkt(`want ${head} no-progress\n`)}0000${pkt('done\n')}`));
  const res = await fetch(`${app.url}/${repo.full_name}.git/git-upload-pack`, {
    method: 'POST',
    headers: { Authorization: owner.auth, 'Content-Type': 'application/x-git-upload-pack-request', 'Content-Encoding': 'gzip' },
    body,
  });
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/x-git-upload-pack-result');
  const answer = Buffer.from(await res.arrayBuffer());
  assert.ok(answer.includes(Buffer.from('PACK')), answer.subarray(0, 80).toString());
});

test('a sha256 repository clones and pushes', async () => {
  const repo = await userRepo(app, owner, { auto_init: true, object_format_name: 'sha256' });
  assert.is(repo.object_format_name, 'sha256');
  const dir = dirName('sha256');
  await ok(['clone', '-q', urlOf(repo, withPassword(owner)), dir]);
  assert.is((await ok(['rev-parse', '--show-object-format'], { cwd: dir })).trim(), 'sha256');
  const sha = await commitFile(dir, 'c.txt', 'c\n');
  assert.is(sha.length, 64);
  await ok(['push', '-q', 'origin', 'main'], { cwd: dir });
  assert.ok(await bareHas(repo, sha));
});

test('unknown services and wrong content types are refused', async () => {
  assert.is((await infoRefs(pub, 'git-upload-archive')).status, 403);
  assert.is((await fetch(`${app.url}/${pub.full_name}.git/info/refs`)).status, 403);
  const res = await fetch(`${app.url}/${pub.full_name}.git/git-upload-pack`, { method: 'POST', body: '0000', headers: { 'Content-Type': 'text/plain' } });
  assert.is(res.status, 415);
});

test.run();
