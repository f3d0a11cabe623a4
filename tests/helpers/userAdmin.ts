// Shared setup of the user-administration tests: the standard role checks every /admin operation answers.
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';

type Answer = { response: Response; error?: unknown };

/**
 * 401 anonymous, 403 for a plain user (`user should be the site admin`) and for an admin token without the
 * scope; `call` sends the operation with the given Authorization (null: anonymous). `scope` is the one needed.
 */
export async function assertAdminOnly(app: TestApp, call: (auth: string | null) => Promise<Answer>, scope: 'read:admin' | 'write:admin'): Promise<void> {
  assert.is((await call(null)).response.status, 401, 'anonymous');
  const plain = await call(await app.token(await app.user(), ['all']));
  assert.is(plain.response.status, 403, 'plain user');
  assert.is((plain.error as { message: string }).message, 'user should be the site admin');
  const wrong = await call(await app.token(app.admin, [scope === 'read:admin' ? 'read:user' : 'read:admin']));
  assert.is(wrong.response.status, 403, 'token without the scope');
  assert.match((wrong.error as { message: string }).message, new RegExp(scope));
}
