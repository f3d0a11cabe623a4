import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sshpk from 'sshpk';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { people, sharedRepo, type People } from '../../helpers/issues.js';
import { addDeployKey, keyPair, withoutComment } from '../../helpers/keys.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;

const post = (body: { title: string; key: string }, authorization?: string) => app.client(authorization).POST('/user/keys', { body });

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

test('201: ed25519, ECDSA and RSA 2048 keys; the comment dropped; the fingerprint as ssh-keygen -lf prints it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-key-'));
  for (const kind of ['ed25519', 'ecdsa', 'rsa'] as const) {
    const k = keyPair(kind);
    const r = await post({ title: `my ${kind}`, key: `  ${k.public}\n` }, p.writer.auth);
    assert.is(r.response.status, 201, `${kind}: ${JSON.stringify(r.error)}`);
    assertSpec('userCurrentPostKey', r);
    const got = r.data!;
    assert.equal({ ...got, user: got.user.login }, {
      id: got.id, key: withoutComment(k.public), key_type: 'user', fingerprint: k.fingerprint, title: `my ${kind}`, read_only: false,
      url: `${app.config.rootUrl}api/v1/user/keys/${got.id}`, created_at: got.created_at, last_used_at: null, user: p.writer.username,
    });
    writeFileSync(join(dir, `${kind}.pub`), `${k.public}\n`);
    const printed = execFileSync('ssh-keygen', ['-lf', join(dir, `${kind}.pub`)], { encoding: 'utf8' }).split(' ')[1];
    assert.is(got.fingerprint, printed, `${kind}: ssh-keygen agrees`);
  }
  const mine = await app.client(p.writer.auth).GET('/user/keys');
  assert.equal(mine.data!.map((k) => k.title), ['my ed25519', 'my ecdsa', 'my rsa']);
});

test('422: not a key, a private key, RSA under 2048 bits, DSA, an empty title', async () => {
  const dsa = generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 });
  const dsaLine = sshpk.parseKey(dsa.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'pem').toString('ssh');
  const cases: Array<[string, { title: string; key: string }, RegExp]> = [
    ['garbage', { title: 't', key: 'ssh-ed25519 not-base64!!' }, /not an OpenSSH public key/],
    ['private', { title: 't', key: keyPair().private }, /private key/],
    ['rsa 1024', { title: 't', key: keyPair('rsa', { bits: 1024 }).public }, /2048 bits/],
    ['dsa', { title: 't', key: dsaLine }, /dsa keys are not accepted/],
    ['blank title', { title: '  ', key: keyPair().public }, /Title/],
  ];
  for (const [label, body, pattern] of cases) {
    const r = await post(body, p.writer.auth);
    assert.is(r.response.status, 422, label);
    assertSpec('userCurrentPostKey', r);
    assert.match(messageOf(r.error), pattern, label);
  }
});

test('422: a key already in use — by the caller, by another user (whatever its comment), as a deploy key', async () => {
  const k = keyPair();
  assert.is((await post({ title: 'a', key: k.public }, p.reader.auth)).response.status, 201);
  for (const [label, as, line] of [['again', p.reader, k.public], ['other user, other comment', p.outsider, `${withoutComment(k.public)} elsewhere`]] as const) {
    const r = await post({ title: 'b', key: line }, as.auth);
    assert.is(r.response.status, 422, label);
    assert.is(messageOf(r.error), 'A key with the same content already exists');
  }
  const repo = await sharedRepo(app, p);
  const d = keyPair();
  await addDeployKey(app, repo, p.owner, d);
  const r = await post({ title: 'c', key: d.public }, p.owner.auth);
  assert.is(r.response.status, 422);
  assert.is(messageOf(r.error), 'Key content has been used as deploy key');
});

test('many adding one key at once: one 201, the others 422 (never 500)', async () => {
  const k = keyPair();
  const answers = await Promise.all([p.owner, p.reader, p.writer, p.outsider].map((as) => post({ title: 'race', key: k.public }, as.auth)));
  assert.equal(answers.map((a) => a.response.status).sort(), [201, 422, 422, 422]);
});

test('401: anonymous; 403: a token without write:user', async () => {
  const anon = await post({ title: 't', key: keyPair().public });
  assert.is(anon.response.status, 401);
  assertSpec('userCurrentPostKey', anon);
  const r = await post({ title: 't', key: keyPair().public }, await app.token(p.writer, ['read:user']));
  assert.is(r.response.status, 403);
  assertSpec('userCurrentPostKey', r);
});

test.run();
