// The per-operation tests of the signed-in user's runners (`/user/actions/runners…`) and of PATCH on a
// runner at repository and organization level: the user's own runners only (another user's, a
// repository's or the site's are 404), 401 anonymous, 403 for a token without the scope.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import { actionRunners } from '../../src/db/schema/index.js';
import { registerWith, type TestRunner } from './actions.js';
import { startApp, type TestApp } from './harness.js';
import { actor, type Actor } from './repos.js';
import { assertSpecAnswer } from './spec-check.js';

export type UserRunnerVerb = 'List' | 'Token' | 'Get' | 'Delete' | 'Patch';

export function userRunnerTests(operationId: OperationId, verb: UserRunnerVerb, method: 'GET' | 'POST' | 'DELETE' | 'PATCH'): void {
  let app: TestApp;
  let me: Actor;
  let other: Actor;
  let mine: TestRunner;
  let theirs: TestRunner;
  let site: TestRunner;

  const call = async (auth: string | null, suffix = '', body?: unknown) => {
    const res = await fetch(`${app.url}/api/v1/user/actions/runners${suffix}`, {
      method, headers: { ...(auth ? { Authorization: auth } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    assertSpecAnswer(operationId, res.status, parsed);
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const tokenOf = async (who: Actor) => {
    const res = await fetch(`${app.url}/api/v1/user/actions/runners/registration-token`, { method: 'POST', headers: { Authorization: who.auth } });
    assert.is(res.status, 200);
    return ((await res.json()) as { token: string }).token;
  };
  const target = () => (verb === 'List' ? '' : verb === 'Token' ? '/registration-token' : `/${mine.id}`);
  const body = verb === 'Patch' ? { disabled: true } : undefined;

  test.before(async () => {
    app = await startApp();
    [me, other] = await Promise.all([actor(app), actor(app)]);
    mine = await registerWith(app, await tokenOf(me), ['mine']);
    theirs = await registerWith(app, await tokenOf(other), ['theirs']);
    site = await registerWith(app, await app.services.runners.registrationToken(), ['site']);
  });
  test.after(async () => {
    await app.close();
  });

  if (verb === 'List') {
    test('200: only the caller\'s runners; disabled; pages', async () => {
      const res = await call(me.auth);
      assert.is(res.status, 200);
      assert.equal(res.body.runners.map((r: { id: number }) => r.id), [mine.id]);
      assert.is(res.headers.get('x-total-count'), '1');
      assert.equal((await call(me.auth, '?disabled=true')).body.runners, []);
    });
  }
  if (verb === 'Token') {
    test('200: the same token each time; a runner registered with it is the user\'s ', async () => {
      const a = await call(me.auth, '/registration-token');
      assert.is(a.status, 200);
      assert.is((await call(me.auth, '/registration-token')).body.token, a.body.token);
      assert.is.not((await call(other.auth, '/registration-token')).body.token, a.body.token);
      const [row] = await app.services.deps.db.select().from(actionRunners).where(eq(actionRunners.id, mine.id));
      assert.equal([row!.ownerId, row!.repoId], [me.id, 0]);
    });
  }
  if (verb === 'Get' || verb === 'Delete' || verb === 'Patch') {
    test('404: another user\'s runner, the site\'s, an unknown or non-numeric id', async () => {
      for (const id of [theirs.id, site.id, 9_999_999, 'x']) assert.is((await call(me.auth, `/${id}`, body)).status, 404, String(id));
    });
  }
  if (verb === 'Get') {
    test('200: the caller\'s own runner', async () => {
      const res = await call(me.auth, `/${mine.id}`);
      assert.is(res.status, 200);
      assert.equal([res.body.id, res.body.name], [mine.id, mine.name]);
    });
  }
  if (verb === 'Patch') {
    test('200: disabled and enabled again; 422 without `disabled`', async () => {
      const off = await call(me.auth, `/${mine.id}`, { disabled: true });
      assert.is(off.status, 200);
      assert.is(off.body.disabled, true);
      assert.is((await call(me.auth, `/${mine.id}`, { disabled: false })).body.disabled, false);
      assert.is((await call(me.auth, `/${mine.id}`, {})).status, 422);
    });
  }
  if (verb === 'Delete') {
    test('204: the caller\'s runner goes; a second delete is 404', async () => {
      const victim = await registerWith(app, await tokenOf(me), ['victim']);
      assert.is((await call(me.auth, `/${victim.id}`)).status, 204);
      assert.is((await call(me.auth, `/${victim.id}`)).status, 404);
    });
  }

  test('401 anonymous; 403 for a token without the user scope', async () => {
    assert.is((await call(null, target(), body)).status, 401);
    assert.is((await call(await app.token(me, ['write:repository']), target(), body)).status, 403);
    if (verb !== 'Delete') assert.is((await call(me.auth, target(), body)).status, 200);
  });

  test.run();
}
