// The server's signing keys, the operation tests of `/signing-key.gpg`, `/signing-key.pub` and their
// per-repository twins: with a key of the endpoint's format (SIGNING_KEY) the public key, as plain text,
// to everyone who may see the repository; with none (the default) or a key of the other format 404, as
// Gitea answers; a wrong credential 401, a token without the repository scope 403.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as openpgp from 'openpgp';
import type { OperationId } from '../../src/api/types.js';
import { openpgpSigningKey, sshSigningKey, type TestSigningKey } from './commitSigning.js';
import { repoFor, roles, wrongScope, type Roles } from './gitFixtures.js';
import { startApp, type TestApp } from './harness.js';
import type { Repository } from './repos.js';
import { assertSpecAnswer } from './spec-check.js';

type Endpoint = '/signing-key.gpg' | '/signing-key.pub';

interface World {
  app: TestApp;
  r: Roles;
  pub: Repository;
  priv: Repository;
}

async function world(env: Record<string, string>): Promise<World> {
  const app = await startApp(env);
  const r = await roles(app);
  const [pub, priv] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  return { app, r, pub, priv };
}

/** `repo`: the per-repository operation (under /repos/{owner}/{repo}); otherwise the instance's. */
export function signingKeyTests(op: OperationId, endpoint: Endpoint, opts: { repo?: boolean } = {}): void {
  const format = endpoint === '/signing-key.gpg' ? 'openpgp' : 'ssh';
  let key: TestSigningKey;
  let keyed: World;
  let otherFormat: World;
  let plain: World;
  test.before(async () => {
    const [gpg, ssh] = [await openpgpSigningKey(), sshSigningKey()];
    key = format === 'openpgp' ? gpg : ssh;
    const other = format === 'openpgp' ? ssh : gpg;
    [keyed, otherFormat, plain] = await Promise.all([world({ SIGNING_KEY: key.file }), world({ SIGNING_KEY: other.file }), world({})]);
  });
  test.after(async () => {
    await Promise.all([keyed, otherFormat, plain].map((w) => w?.app.close()));
  });

  const get = async (w: World, auth?: string, repo: Repository = w.pub) => {
    const path = opts.repo ? `/repos/${repo.full_name}${endpoint}` : endpoint;
    const res = await fetch(`${w.app.url}/api/v1${path}`, { headers: auth ? { Authorization: auth } : {} });
    const text = await res.text();
    if (res.status !== 200) assertSpecAnswer(op, res.status, text ? JSON.parse(text) : undefined);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text };
  };

  test(`200: the ${format} public key as plain text, to anonymous callers, users and site administrators`, async () => {
    const { r } = keyed;
    for (const auth of [undefined, r.outsider.auth, r.reader.auth, await keyed.app.token(r.owner, opts.repo ? ['read:repository'] : ['read:issue']), r.admin.auth]) {
      const res = await get(keyed, auth);
      assert.is(res.status, 200, String(auth));
      assert.match(res.type, /^text\/plain/);
      if (format === 'ssh') assert.is(res.text, key.publicKey);
      else {
        const [served, made] = await Promise.all([openpgp.readKey({ armoredKey: res.text }), openpgp.readKey({ armoredKey: key.publicKey })]);
        assert.is(served.getFingerprint(), made.getFingerprint());
        assert.not.ok(served.isPrivate());
      }
      assert.not.match(res.text, /PRIVATE/);
    }
  });

  test('404 without a signing key, and with a key of the other format', async () => {
    for (const w of [plain, otherFormat]) {
      for (const auth of [undefined, w.r.owner.auth, w.r.admin.auth]) {
        const res = await get(w, auth);
        assert.is(res.status, 404, String(auth));
        assert.not.match(res.text, /BEGIN PGP|ssh-/);
      }
    }
  });

  test('401: a wrong credential', async () => {
    assert.is((await get(keyed, 'token ' + 'f'.repeat(40))).status, 401);
  });

  if (opts.repo) {
    test('a private repository: its readers get the key; outsiders and anonymous callers 404; a missing repository 404', async () => {
      const { r, priv } = keyed;
      for (const who of [r.owner, r.writer, r.reader, r.admin]) assert.is((await get(keyed, who.auth, priv)).status, 200, who.username);
      for (const auth of [r.outsider.auth, undefined]) assert.is((await get(keyed, auth, priv)).status, 404);
      assert.is((await get(keyed, r.owner.auth, { ...keyed.pub, full_name: `${keyed.pub.full_name}-missing` })).status, 404);
    });

    test('403: a token without the repository scope', async () => {
      assert.is((await get(keyed, await wrongScope(keyed.app, keyed.r.owner, false))).status, 403);
    });
  }
  test.run();
}
