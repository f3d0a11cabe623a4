// git over SSH with the system ssh client: a user key clones and pushes as its user (the push recorded
// as over HTTP), a read-only deploy key clones but cannot push, a key of another repository and a user
// without access reach nothing, and the clone address is the Repository's ssh_url.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startSshServer, type SshServer } from '../../src/transport/ssh.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { people, sharedRepo, type People, type Repo } from '../helpers/issues.js';
import { actor, getRepo, userRepo, pathOf, type Actor } from '../helpers/repos.js';

const run = promisify(execFile);

let app: TestApp;
let ssh: SshServer;
let p: People;
let repo: Repo;
const dir = mkdtempSync(join(tmpdir(), 'anvil-ssh-'));

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A key pair made by ssh-keygen; answers its private key file and public key line. */
async function sshKey(name: string): Promise<{ file: string; public: string }> {
  const file = join(dir, name);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
  return { file, public: readFileSync(`${file}.pub`, 'utf8').trim() };
}

/** git with GIT_SSH_COMMAND using `key`; resolves with the exit code and stderr. */
async function gitWith(key: string, args: string[], cwd = dir): Promise<{ code: number; stderr: string }> {
  const env = {
    ...process.env,
    GIT_SSH_COMMAND: `ssh -i ${key} -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR`,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Tester', GIT_AUTHOR_EMAIL: 'tester@example.com', GIT_COMMITTER_NAME: 'Tester', GIT_COMMITTER_EMAIL: 'tester@example.com',
  };
  try {
    const r = await run('git', args, { cwd, env });
    return { code: 0, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stderr: e.stderr ?? '' };
  }
}

async function addKey(as: Actor, key: { public: string }): Promise<void> {
  const r = await app.client(as.auth).POST('/user/keys', { body: { title: 'ssh test', key: key.public } });
  assert.is(r.response.status, 201, JSON.stringify(r.error));
}

async function addDeploy(r: Repo, key: { public: string }, readOnly: boolean, title = `deploy ${readOnly}`): Promise<void> {
  const res = await app.client(p.owner.auth).POST('/repos/{owner}/{repo}/keys', { params: { path: r.path }, body: { title, key: key.public, read_only: readOnly } });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
}

test.before(async () => {
  const port = await freePort();
  app = await startApp({ SSH_PORT: String(port), SSH_DOMAIN: '127.0.0.1' });
  ssh = await startSshServer(app.services, app.config, pino({ level: 'silent' }));
  p = await people(app);
  const made = await userRepo(app, p.owner, { auto_init: true, private: true });
  repo = { ...made, path: pathOf(made) };
});
test.after(async () => {
  await ssh?.close();
  await app.close();
});

test('a user key clones from ssh_url and pushes; the push moves the branch and is recorded', async () => {
  const key = await sshKey('owner');
  await addKey(p.owner, key);
  const url = (await getRepo(app, repo.path.owner, repo.path.repo, p.owner.auth)).data!.ssh_url;
  assert.is(url, `ssh://git@127.0.0.1:${ssh.port}/${repo.full_name}.git`);
  const clone = await gitWith(key.file, ['clone', '-q', url, 'owner-clone']);
  assert.is(clone.code, 0, clone.stderr);
  const work = join(dir, 'owner-clone');
  assert.match(readFileSync(join(work, 'README.md'), 'utf8'), repo.name);
  writeFileSync(join(work, 'ssh.txt'), 'pushed over ssh\n');
  await gitWith(key.file, ['add', 'ssh.txt'], work);
  await gitWith(key.file, ['commit', '-q', '-m', 'over ssh'], work);
  const push = await gitWith(key.file, ['push', '-q', 'origin', 'HEAD:main'], work);
  assert.is(push.code, 0, push.stderr);
  const branch = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...repo.path, branch: 'main' } } });
  assert.is(branch.data!.commit.message.trim(), 'over ssh');
  const feed = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/activities/feeds', { params: { path: repo.path } });
  assert.ok(feed.data!.some((a) => a.op_type === 'commit_repo' && a.act_user.login === p.owner.username), 'the push is in the feed');
});

test('protected branches over SSH: the pre-receive hook applies the pusher\'s rules, as over HTTP', async () => {
  // The owner's key and clone from the first test.
  const key = join(dir, 'owner');
  const work = join(dir, 'owner-clone');
  const rule = { rule_name: 'guarded', enable_push: true, enable_push_whitelist: true };
  const made = await app.client(p.owner.auth).POST('/repos/{owner}/{repo}/branch_protections', { params: { path: repo.path }, body: rule });
  assert.is(made.response.status, 201, JSON.stringify(made.error));
  const denied = await gitWith(key, ['push', 'origin', 'HEAD:guarded'], work);
  assert.is.not(denied.code, 0);
  assert.match(denied.stderr, 'you may not push to the protected branch guarded');
  const edited = await app.client(p.owner.auth).PATCH('/repos/{owner}/{repo}/branch_protections/{name}', {
    params: { path: { ...repo.path, name: 'guarded' } }, body: { push_whitelist_usernames: [p.owner.username] },
  });
  assert.is(edited.response.status, 200);
  const allowed = await gitWith(key, ['push', '-q', 'origin', 'HEAD:guarded'], work);
  assert.is(allowed.code, 0, allowed.stderr);
});

test('a read-only deploy key clones but its push is refused; a writable one pushes', async () => {
  const ro = await sshKey('deploy-ro');
  await addDeploy(repo, ro, true);
  assert.is((await gitWith(ro.file, ['clone', '-q', `ssh://git@127.0.0.1:${ssh.port}/${repo.full_name}.git`, 'ro-clone'])).code, 0);
  const work = join(dir, 'ro-clone');
  writeFileSync(join(work, 'ro.txt'), 'no\n');
  await gitWith(ro.file, ['add', 'ro.txt'], work);
  await gitWith(ro.file, ['commit', '-q', '-m', 'refused'], work);
  const push = await gitWith(ro.file, ['push', '-q', 'origin', 'HEAD:main'], work);
  assert.is.not(push.code, 0);
  assert.match(push.stderr, 'read-only');
  const rw = await sshKey('deploy-rw');
  await addDeploy(repo, rw, false);
  const pushRw = await gitWith(rw.file, ['push', '-q', 'origin', 'HEAD:refs/heads/from-deploy'], work);
  assert.is(pushRw.code, 0, pushRw.stderr);
});

test('the wiki over SSH: a user key clones and pushes <repo>.wiki.git; a read-only deploy key may not push it', async () => {
  const page = await app.client(p.owner.auth).POST('/repos/{owner}/{repo}/wiki/new', { params: { path: repo.path }, body: { title: 'Home', content_base64: Buffer.from('# wiki\n').toString('base64') } });
  assert.is(page.response.status, 201);
  const key = await sshKey('wiki-owner');
  await addKey(p.owner, key);
  const url = `ssh://git@127.0.0.1:${ssh.port}/${repo.full_name}.wiki.git`;
  const clone = await gitWith(key.file, ['clone', '-q', url, 'wiki-clone']);
  assert.is(clone.code, 0, clone.stderr);
  const work = join(dir, 'wiki-clone');
  assert.is(readFileSync(join(work, 'Home.md'), 'utf8'), '# wiki\n');
  writeFileSync(join(work, 'Over-SSH.md'), 'ssh page\n');
  await gitWith(key.file, ['add', 'Over-SSH.md'], work);
  await gitWith(key.file, ['commit', '-q', '-m', 'wiki over ssh'], work);
  const push = await gitWith(key.file, ['push', '-q', 'origin', 'HEAD'], work);
  assert.is(push.code, 0, push.stderr);
  const read = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/wiki/page/{pageName}', { params: { path: { ...repo.path, pageName: 'Over-SSH' } } });
  assert.is(read.response.status, 200);
  const ro = await sshKey('wiki-deploy-ro');
  await addDeploy(repo, ro, true, 'wiki deploy');
  const roPush = await gitWith(ro.file, ['push', '-q', url, 'HEAD:refs/heads/other'], work);
  assert.is.not(roPush.code, 0);
  assert.match(roPush.stderr, 'read-only');
});

test('a client that vanishes mid-clone leaves the server serving', async () => {
  const key = await sshKey('vanishing');
  await addKey(p.owner, key);
  const { spawn } = await import('node:child_process');
  const client = spawn('ssh', ['-i', key.file, '-p', String(ssh.port), '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=no',
    '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', 'git@127.0.0.1', `git-upload-pack '/${repo.full_name}.git'`], { stdio: ['pipe', 'pipe', 'ignore'] });
  await new Promise<void>((resolve) => client.stdout.once('data', () => resolve()));
  client.kill('SIGKILL');
  await new Promise((resolve) => client.once('close', resolve));
  const again = await gitWith(key.file, ['clone', '-q', `ssh://git@127.0.0.1:${ssh.port}/${repo.full_name}.git`, 'after-vanish']);
  assert.is(again.code, 0, again.stderr);
});

test('refused: a deploy key of another repository, a user who cannot read the repository, an unknown key, a shell', async () => {
  const other = await sharedRepo(app, p);
  const foreign = await sshKey('foreign');
  await addDeploy(other, foreign, true);
  const url = `ssh://git@127.0.0.1:${ssh.port}/${repo.full_name}.git`;
  const a = await gitWith(foreign.file, ['clone', '-q', url, 'x1']);
  assert.is.not(a.code, 0);
  assert.match(a.stderr, 'Repository not found');
  const stranger: Actor = await actor(app);
  const sk = await sshKey('stranger');
  await addKey(stranger, sk);
  const b = await gitWith(sk.file, ['clone', '-q', url, 'x2']);
  assert.is.not(b.code, 0);
  assert.match(b.stderr, 'Repository not found');
  const unknown = await sshKey('unknown');
  const c = await gitWith(unknown.file, ['clone', '-q', url, 'x3']);
  assert.is.not(c.code, 0);
  assert.match(c.stderr, /Permission denied/);
  const shell = await run('ssh', ['-i', sk.file, '-p', String(ssh.port), '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', 'git@127.0.0.1', 'ls /']).catch((e) => e as { code: number; stderr: string });
  assert.is.not((shell as { code?: number }).code ?? 0, 0);
  assert.match((shell as { stderr: string }).stderr, 'only git-upload-pack, git-receive-pack and git-lfs-authenticate are served here');
});

test('an old name (renamed repository, renamed owner) resolves silently to the current repository; an outsider still finds nothing', async () => {
  const key = await sshKey('renamer');
  const owner = await actor(app);
  await addKey(owner, key);
  const made = await userRepo(app, owner, { auto_init: true, private: true });
  const newName = `${made.name}-moved`;
  const renamed = await app.client(owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: { owner: owner.username, repo: made.name } }, body: { name: newName } });
  assert.is(renamed.response.status, 200);
  const oldUrl = `ssh://git@127.0.0.1:${ssh.port}/${owner.username}/${made.name}.git`;
  const clone = await gitWith(key.file, ['clone', '-q', oldUrl, 'renamed-clone']);
  assert.is(clone.code, 0, clone.stderr);
  const work = join(dir, 'renamed-clone');
  assert.match(readFileSync(join(work, 'README.md'), 'utf8'), made.name);
  writeFileSync(join(work, 'old-url.txt'), 'pushed to the old name\n');
  await gitWith(key.file, ['add', 'old-url.txt'], work);
  await gitWith(key.file, ['commit', '-q', '-m', 'to the old name'], work);
  const push = await gitWith(key.file, ['push', '-q', 'origin', 'HEAD:main'], work);
  assert.is(push.code, 0, push.stderr);
  const branch = await app.client(owner.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { owner: owner.username, repo: newName, branch: 'main' } } });
  assert.is(branch.data!.commit.message.trim(), 'to the old name', 'the push reached the renamed repository');
  // The owner renamed too: the old owner name and the old repository name still lead there.
  const ownerName = `${owner.username}x`;
  const admin = await app.token(app.admin, ['write:admin']);
  assert.is((await app.client(admin).POST('/admin/users/{username}/rename', { params: { path: { username: owner.username } }, body: { new_username: ownerName } })).response.status, 204);
  const again = await gitWith(key.file, ['clone', '-q', oldUrl, 'renamed-owner-clone']);
  assert.is(again.code, 0, again.stderr);
  assert.ok(readFileSync(join(dir, 'renamed-owner-clone', 'old-url.txt'), 'utf8'));
  // Someone who cannot read the private repository learns nothing from the old name.
  const stranger = await actor(app);
  const sk = await sshKey('renamed-stranger');
  await addKey(stranger, sk);
  const refused = await gitWith(sk.file, ['clone', '-q', oldUrl, 'renamed-x']);
  assert.is.not(refused.code, 0);
  assert.match(refused.stderr, 'Repository not found');
});

test.run();
