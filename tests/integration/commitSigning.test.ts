// The server's signing key (SIGNING_KEY, docs/signing.md), OpenPGP and SSH: its public half at
// /signing-key.gpg, /signing-key.pub and their per-repository twins; the commits anvil writes itself (a
// repository's first commit, a file change through the contents API, a pull request's merge, a wiki
// page) carry a signature real `git verify-commit` accepts and that anvil's commit API reports verified,
// by the key's SIGNING_NAME and SIGNING_EMAIL; a kind whose rule is `never` stays unsigned; without a
// key nothing is signed and the four endpoints answer 404.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiVerification, openpgpSigningKey, rawCommit, signingEnv, sshSigningKey, verifyCommit, type TestSigningKey } from '../helpers/commitSigning.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { mergePull, openPull, getPull } from '../helpers/pulls.js';
import { actor, pathOf, repoFolder, userRepo, type Actor, type Repository } from '../helpers/repos.js';
import { newWikiPage, wikiDirOf } from '../helpers/wiki.js';
import { addGpgKey, gpgPair } from '../helpers/gpg.js';

const apps: TestApp[] = [];
let gpgKey: TestSigningKey;
let sshKey: TestSigningKey;
let gpgApp: TestApp;
let sshApp: TestApp;
/** OpenPGP key, file changes and wiki pages never signed, the rest always. */
let neverApp: TestApp;
let plainApp: TestApp;

test.before(async () => {
  gpgKey = await openpgpSigningKey();
  sshKey = sshSigningKey();
  [gpgApp, sshApp, neverApp, plainApp] = await Promise.all([
    startApp(signingEnv(gpgKey)),
    startApp(signingEnv(sshKey)),
    startApp(signingEnv(gpgKey, { SIGNING_CRUD_ACTIONS: 'never', SIGNING_WIKI: 'never' })),
    startApp(),
  ]);
  apps.push(gpgApp, sshApp, neverApp, plainApp);
});
test.after(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

const get = async (app: TestApp, path: string, auth?: string) => {
  const res = await fetch(`${app.url}/api/v1${path}`, { headers: auth ? { Authorization: auth } : {} });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};

/** The commits each kind of write makes in a fresh auto-initialized repository of `owner`. */
async function writeEach(app: TestApp, owner: Actor): Promise<{ repo: Repository; dir: string; initial: string; crud: string; merge: string; wiki: string }> {
  const repo = await userRepo(app, owner, { auto_init: true, readme: 'Default', default_branch: 'main' });
  const path = pathOf(repo);
  const c = app.client(owner.auth);
  const branch = await c.GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...path, branch: 'main' } } });
  assert.is(branch.response.status, 200);
  const initial = branch.data!.commit!.id!;
  const file = await c.POST('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...path, filepath: 'a.txt' } }, body: { content: Buffer.from('a\n').toString('base64') } });
  assert.is(file.response.status, 201, JSON.stringify(file.error));
  const crud = file.data!.commit!.sha!;
  const topic = await c.POST('/repos/{owner}/{repo}/contents/{filepath}', {
    params: { path: { ...path, filepath: 'b.txt' } }, body: { content: Buffer.from('b\n').toString('base64'), branch: 'main', new_branch: 'topic' },
  });
  assert.is(topic.response.status, 201, JSON.stringify(topic.error));
  const pr = await openPull(app, repo, owner, 'topic');
  // The base moves on, so the merge makes a commit of its own.
  const more = await c.POST('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...path, filepath: 'c.txt' } }, body: { content: Buffer.from('c\n').toString('base64') } });
  assert.is(more.response.status, 201);
  const merged = await mergePull(app, repo, owner.auth, pr.number!, { Do: 'merge' });
  assert.is(merged.response.status, 200, JSON.stringify(merged.error));
  const merge = (await getPull(app, repo, pr.number!, owner.auth)).merge_commit_sha!;
  const page = await newWikiPage(app, path, 'Home', owner);
  return { repo, dir: repoFolder(app, path.owner, path.repo), initial, crud, merge, wiki: page.last_commit!.sha! };
}

for (const format of ['openpgp', 'ssh'] as const) {
  const [own, them] = format === 'openpgp' ? ['/signing-key.gpg', '/signing-key.pub'] : ['/signing-key.pub', '/signing-key.gpg'];
  const appOf = () => (format === 'openpgp' ? gpgApp : sshApp);
  const keyOf = () => (format === 'openpgp' ? gpgKey : sshKey);

  test(`${format}: ${own} answers the public key to anyone, ${them} 404 (the key is ${format})`, async () => {
    const app = appOf();
    const key = keyOf();
    const owner = await actor(app);
    const repo = await userRepo(app, owner, { private: true });
    for (const auth of [undefined, owner.auth]) {
      const r = await get(app, own, auth);
      assert.is(r.status, 200);
      assert.match(r.type, /^text\/plain/);
      if (format === 'openpgp') assert.match(r.text, /^-----BEGIN PGP PUBLIC KEY BLOCK-----/);
      else assert.is(r.text, key.publicKey);
      assert.not.match(r.text, /PRIVATE/);
      const wrong = await get(app, them, auth);
      assert.is(wrong.status, 404);
      assert.is(wrong.text, '');
    }
    // The repository's key is the instance's; its readers only.
    const repoOwn = await get(app, `/repos/${repo.full_name}${own}`, owner.auth);
    assert.is(repoOwn.status, 200);
    assert.is(repoOwn.text, (await get(app, own)).text);
    assert.is((await get(app, `/repos/${repo.full_name}${them}`, owner.auth)).status, 404);
    assert.is((await get(app, `/repos/${repo.full_name}${own}`)).status, 404);
  });

  test(`${format}: the first commit, a file change, a merge and a wiki page are signed; git verify-commit and the commit API agree`, async () => {
    const app = appOf();
    const key = keyOf();
    const owner = await actor(app);
    const w = await writeEach(app, owner);
    const header = format === 'openpgp' ? /^gpgsig -----BEGIN PGP SIGNATURE-----$/m : /^gpgsig -----BEGIN SSH SIGNATURE-----$/m;
    for (const [kind, sha] of [['initial', w.initial], ['crud', w.crud], ['merge', w.merge]] as const) {
      assert.match(rawCommit(w.dir, sha), header, kind);
      const v = verifyCommit(w.dir, sha, key);
      assert.ok(v.ok, `${kind}: git verify-commit: ${v.output}`);
      const api = await apiVerification(app, w.repo, sha, owner.auth);
      assert.is(api.verified, true, `${kind}: ${api.reason}`);
      assert.equal(api.signer, { name: key.name, email: key.email, username: '' }, kind);
      assert.match(api.reason, new RegExp(`^${key.name} / `), kind);
      assert.ok(api.signature.includes(format === 'openpgp' ? 'BEGIN PGP SIGNATURE' : 'BEGIN SSH SIGNATURE'));
    }
    const wikiDir = wikiDirOf(app, pathOf(w.repo));
    assert.match(rawCommit(wikiDir, w.wiki), header, 'wiki');
    const v = verifyCommit(wikiDir, w.wiki, key);
    assert.ok(v.ok, `wiki: git verify-commit: ${v.output}`);
  });
}

test('a kind whose rule is never stays unsigned: file changes and wiki pages; first commits and merges still signed', async () => {
  const owner = await actor(neverApp);
  const w = await writeEach(neverApp, owner);
  for (const sha of [w.crud]) {
    assert.not.match(rawCommit(w.dir, sha), /^gpgsig/m);
    const api = await apiVerification(neverApp, w.repo, sha, owner.auth);
    assert.is(api.verified, false);
    assert.is(api.reason, 'gpg.error.not_signed_commit');
  }
  assert.not.match(rawCommit(wikiDirOf(neverApp, pathOf(w.repo)), w.wiki), /^gpgsig/m);
  for (const sha of [w.initial, w.merge]) {
    assert.ok(verifyCommit(w.dir, sha, gpgKey).ok);
    assert.is((await apiVerification(neverApp, w.repo, sha, owner.auth)).verified, true);
  }
});

test('the default rules (Gitea\'s): a file change by a user with no GPG key, two-factor or signed parent is not signed; a first commit is', async () => {
  const app = await startApp({ SIGNING_KEY: gpgKey.file, SIGNING_NAME: gpgKey.name, SIGNING_EMAIL: gpgKey.email });
  apps.push(app);
  const owner = await actor(app);
  const w = await writeEach(app, owner);
  assert.ok(verifyCommit(w.dir, w.initial, gpgKey).ok);
  for (const sha of [w.crud, w.merge]) assert.not.match(rawCommit(w.dir, sha), /^gpgsig/m);
  assert.not.match(rawCommit(wikiDirOf(app, pathOf(w.repo)), w.wiki), /^gpgsig/m);
});

test('rules: pubkey (the user has a GPG key), parentsigned (the parent is verified), approved (a protected base with an approval)', async () => {
  const app = await startApp({ ...signingEnv(gpgKey), SIGNING_CRUD_ACTIONS: 'pubkey, parentsigned', SIGNING_MERGES: 'approved' });
  apps.push(app);
  const owner = await actor(app);
  const create = async (repo: Repository, filepath: string) => {
    const r = await app.client(owner.auth).POST('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...pathOf(repo), filepath } }, body: { content: Buffer.from(filepath).toString('base64') } });
    assert.is(r.response.status, 201, JSON.stringify(r.error));
    return r.data!.commit!.sha!;
  };
  const signed = (repo: Repository, sha: string) => /^gpgsig /m.test(rawCommit(repoFolder(app, pathOf(repo).owner, pathOf(repo).repo), sha));
  // No GPG key: a change on a signed first commit stays unsigned.
  const first = await userRepo(app, owner, { auto_init: true, readme: 'Default', default_branch: 'main' });
  const unsignedChange = await create(first, 'one.txt');
  assert.not.ok(signed(first, unsignedChange), 'pubkey: no key');
  await addGpgKey(app, owner, await gpgPair(owner.email));
  // A key now, but the parent is that unsigned change.
  assert.not.ok(signed(first, await create(first, 'two.txt')), 'parentsigned: the parent is unsigned');
  // A key and a signed parent (the first commit of a new repository): signed, and so is the next.
  const second = await userRepo(app, owner, { auto_init: true, readme: 'Default', default_branch: 'main' });
  const a = await create(second, 'a.txt');
  assert.ok(signed(second, a), 'pubkey and parentsigned hold');
  assert.ok(signed(second, await create(second, 'b.txt')), 'its parent is signed by the server');
  // approved: the base branch is not protected, so the merge commit is not signed.
  const topic = await app.client(owner.auth).POST('/repos/{owner}/{repo}/contents/{filepath}', {
    params: { path: { ...pathOf(second), filepath: 't.txt' } }, body: { content: 'dA==', new_branch: 'topic' },
  });
  assert.is(topic.response.status, 201);
  await create(second, 'c.txt');
  const pr = await openPull(app, second, owner, 'topic');
  assert.is((await mergePull(app, second, owner.auth, pr.number!, { Do: 'merge' })).response.status, 200);
  assert.not.ok(signed(second, (await getPull(app, second, pr.number!, owner.auth)).merge_commit_sha!), 'approved: no protected base');
});

test('a SIGNING_KEY file that holds no usable key is reported when the key is first read (main.ts: at start)', async () => {
  const app = await startApp({ SIGNING_KEY: '/nonexistent/signing.asc' });
  apps.push(app);
  try {
    await app.services.commitSigning.describe();
    assert.unreachable('no error');
  } catch (err) {
    assert.match((err as Error).message, /SIGNING_KEY: cannot read \/nonexistent\/signing.asc/);
  }
  assert.ok(await (async () => { try { await app.services.commitSigning.describe(); return false; } catch { return true; } })());
});

test('no key (the default): nothing is signed and the four endpoints answer 404', async () => {
  const owner = await actor(plainApp);
  const w = await writeEach(plainApp, owner);
  for (const sha of [w.initial, w.crud, w.merge]) {
    assert.not.match(rawCommit(w.dir, sha), /^gpgsig/m);
    assert.is((await apiVerification(plainApp, w.repo, sha, owner.auth)).reason, 'gpg.error.not_signed_commit');
  }
  for (const path of ['/signing-key.gpg', '/signing-key.pub', `/repos/${w.repo.full_name}/signing-key.gpg`, `/repos/${w.repo.full_name}/signing-key.pub`]) {
    const r = await get(plainApp, path, owner.auth);
    assert.is(r.status, 404, path);
    assert.is(r.text, '', path);
  }
});

test.run();
