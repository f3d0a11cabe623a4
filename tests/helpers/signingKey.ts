// The server's signing keys (`/signing-key.gpg`, `/signing-key.pub`): without a configured key (anvil has
// none) both answer 404 to everyone, as Gitea does; a wrong credential is still 401.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import { startApp, type TestApp } from './harness.js';
import { assertSpecAnswer } from './spec-check.js';

export function signingKeyTests(op: OperationId, path: '/signing-key.gpg' | '/signing-key.pub'): void {
  let app: TestApp;
  test.before(async () => {
    app = await startApp();
  });
  test.after(async () => {
    await app?.close();
  });

  const get = async (auth?: string) => {
    const res = await fetch(`${app.url}/api/v1${path}`, { headers: auth ? { Authorization: auth } : {} });
    const text = await res.text();
    assertSpecAnswer(op, res.status, text ? JSON.parse(text) : undefined);
    return { status: res.status, text };
  };

  test('404 without a signing key: anonymous callers, users, site administrators', async () => {
    const user = await app.user();
    const admin = await app.user({ admin: true });
    for (const auth of [undefined, user.basic, await app.token(user, ['read:issue']), await app.token(admin, ['all'])]) {
      const r = await get(auth);
      assert.is(r.status, 404, String(auth));
      assert.not.match(r.text, /BEGIN PGP|ssh-/);
    }
  });

  test('401: a wrong credential', async () => {
    assert.is((await get('token ' + 'f'.repeat(40))).status, 401);
  });
  test.run();
}
