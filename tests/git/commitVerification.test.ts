// Commit verification in branch answers: a commit signed by a registered GPG key of its committer's account
// is verified with its signer; a tampered commit, a key nobody registered, a committer without an account and
// an unsigned commit each get Gitea's reason.
import * as openpgp from 'openpgp';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dirOf, disk } from '../helpers/gitFixtures.js';
import { addGpgKey, gpgPair, type GpgPair } from '../helpers/gpg.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo, type Actor, type Repository } from '../helpers/repos.js';

let app: TestApp;
let owner: Actor;
let repo: Repository;
let dir: string;
let pair: GpgPair;
let keyId: number;
test.before(async () => {
  app = await startApp();
  owner = await actor(app);
  repo = await userRepo(app, owner, { auto_init: true });
  dir = dirOf(app, repo);
  pair = await gpgPair(owner.email, 'Owner');
  keyId = (await addGpgKey(app, owner, pair)).id;
});
test.after(async () => {
  await app.close();
});

/** A commit object on top of main, signed by `signer` (binary detached signature in `gpgsig`), on `branch`. */
async function signedCommit(branch: string, signer: GpgPair, opts: { email?: string; tamper?: boolean } = {}): Promise<{ sha: string; payload: string; signature: string }> {
  const parent = (await disk.rev(dir, 'refs/heads/main'))!;
  const tree = (await disk.run(dir, ['rev-parse', `${parent}^{tree}`])).trim();
  const who = `Owner <${opts.email ?? owner.email}> 1700000000 +0000`;
  const payload = `tree ${tree}\nparent ${parent}\nauthor ${who}\ncommitter ${who}\n\nsigned work\n`;
  const signingKeys = await openpgp.readPrivateKey({ armoredKey: signer.privateKey });
  const signature = (await openpgp.sign({ message: await openpgp.createMessage({ binary: Buffer.from(payload) }), signingKeys, detached: true, format: 'armored' })) as string;
  const header = `gpgsig ${signature.trimEnd().split('\n').join('\n ')}\n`;
  const signedText = payload.replace('\n\n', `\n${header}\n`);
  const object = opts.tamper ? signedText.replace('signed work', 'tampered work') : signedText;
  const sha = (await disk.run(dir, ['hash-object', '-t', 'commit', '-w', '--stdin'], { input: object })).trim();
  await disk.run(dir, ['update-ref', `refs/heads/${branch}`, sha]);
  return { sha, payload: opts.tamper ? payload.replace('signed work', 'tampered work') : payload, signature };
}

const branch = async (name: string) => {
  const res = await app.client(owner.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { owner: owner.username, repo: repo.name, branch: name } } });
  assert.is(res.response.status, 200);
  return res.data!.commit.verification;
};

test('a commit signed by a registered key of its committer is verified, with the signer and what was signed', async () => {
  const { payload, signature } = await signedCommit('signed', pair);
  const v = await branch('signed');
  assert.equal(v, { verified: true, reason: `${owner.username} / ${pair.keyId}`, signature, payload, signer: { name: owner.username, email: owner.email, username: '' } });
});

test('unverified: tampered, an unknown key, a committer without an account, unsigned', async () => {
  await signedCommit('tampered', pair, { tamper: true });
  assert.is((await branch('tampered')).reason, 'gpg.error.probable_bad_signature');
  assert.is((await branch('tampered')).verified, false);
  await signedCommit('stranger', await gpgPair(owner.email));
  assert.is((await branch('stranger')).reason, 'gpg.error.no_gpg_keys_found');
  await signedCommit('nobody', pair, { email: 'nobody@nowhere.example' });
  assert.is((await branch('nobody')).reason, 'gpg.error.no_committer_account');
  assert.equal(await branch('main'), { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' });
});

test('a signed annotated tag is verified by its tagger\'s key, its message shown without the signature; a tampered one is not', async () => {
  const target = (await disk.rev(dir, 'refs/heads/main'))!;
  const signingKeys = await openpgp.readPrivateKey({ armoredKey: pair.privateKey });
  const make = async (name: string, tamper: boolean) => {
    const payload = `object ${target}\ntype commit\ntag ${name}\ntagger Owner <${owner.email}> 1700000000 +0000\n\nrelease notes\n`;
    const signature = (await openpgp.sign({ message: await openpgp.createMessage({ binary: Buffer.from(payload) }), signingKeys, detached: true, format: 'armored' })) as string;
    const object = `${tamper ? payload.replace('release notes', 'other notes') : payload}${signature}`;
    const sha = (await disk.run(dir, ['hash-object', '-t', 'tag', '-w', '--stdin'], { input: object })).trim();
    await disk.run(dir, ['update-ref', `refs/tags/${name}`, sha]);
    return sha;
  };
  const get = (sha: string) => app.client(owner.auth).GET('/repos/{owner}/{repo}/git/tags/{sha}', { params: { path: { owner: owner.username, repo: repo.name, sha } } });
  const good = await get(await make('v-signed', false));
  assert.is(good.response.status, 200);
  assert.is(good.data!.message, 'release notes\n');
  assert.equal([good.data!.verification.verified, good.data!.verification.reason], [true, `${owner.username} / ${pair.keyId}`]);
  const bad = await get(await make('v-tampered', true));
  assert.equal([bad.data!.verification.verified, bad.data!.verification.reason], [false, 'gpg.error.probable_bad_signature']);
});

test('the branch list verifies each branch; a deleted key verifies nothing any more', async () => {
  const list = await app.client(owner.auth).GET('/repos/{owner}/{repo}/branches', { params: { path: { owner: owner.username, repo: repo.name } } });
  const by = new Map(list.data!.map((b) => [b.name, b.commit.verification.verified]));
  assert.equal(Object.fromEntries(by), { main: false, nobody: false, signed: true, stranger: false, tampered: false });
  const del = await app.client(owner.auth).DELETE('/user/gpg_keys/{id}', { params: { path: { id: keyId } } });
  assert.is(del.response.status, 204);
  assert.is((await branch('signed')).reason, 'gpg.error.no_gpg_keys_found');
});

test.run();
