// Federation (NodeInfo, ActivityPub): Gitea serves these routes only with `[federation] ENABLED`; anvil has no
// federation, so, as Gitea with it off, each answers 404 to everyone (no token scope is asked for), and a
// wrong credential is still 401.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import { startApp, type TestApp } from './harness.js';
import { assertSpecAnswer } from './spec-check.js';

export function federationOffTests(op: OperationId, method: 'GET' | 'POST', path: (userId: number) => string): void {
  let app: TestApp;
  test.before(async () => {
    app = await startApp();
  });
  test.after(async () => {
    await app?.close();
  });

  const call = async (userId: number, auth?: string) => {
    const headers: Record<string, string> = auth ? { Authorization: auth } : {};
    const init: RequestInit = { method, headers };
    if (method === 'POST') {
      headers['Content-Type'] = 'application/activity+json';
      init.body = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Follow' });
    }
    const res = await fetch(`${app.url}/api/v1${path(userId)}`, init);
    const text = await res.text();
    assertSpecAnswer(op, res.status, text ? JSON.parse(text) : undefined);
    return { status: res.status, text };
  };

  test('404 with federation off: anonymous callers, users, tokens with or without the activitypub scope, site administrators', async () => {
    const user = await app.user();
    const admin = await app.user({ admin: true });
    const auths = [undefined, user.basic, await app.token(user, ['read:issue']), await app.token(user, ['write:activitypub']),
      await app.token(admin, ['all'])];
    for (const userId of [user.id, admin.id, 999999]) {
      for (const auth of auths) {
        const r = await call(userId, auth);
        assert.is(r.status, 404, `${userId} ${String(auth)}`);
        assert.is(r.text, '');
      }
    }
  });

  test('401: a wrong credential', async () => {
    assert.is((await call(1, 'token ' + 'f'.repeat(40))).status, 401);
  });
  test.run();
}
