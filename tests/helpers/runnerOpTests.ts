// The per-operation tests of the runner operations of a repository and of an organization: the same
// verbs (list, registration token, get, delete) with the same statuses, for a repository's admins or an
// organization's owners (site admins for both). The roles are the webhook operations' (hookRoles.ts).
import { eq, inArray } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import { actionRunners } from '../../src/db/schema/index.js';
import { registerWith, type TestRunner } from './actions.js';
import { startApp, type TestApp } from './harness.js';
import { hookWorld, rolesOf, type HookWorld } from './hookRoles.js';
import { assertSpecAnswer } from './spec-check.js';

export type RunnerScopeName = 'repo' | 'org';
export type RunnerVerb = 'List' | 'Token' | 'Get' | 'Delete' | 'Patch';

const base = (w: HookWorld, scope: RunnerScopeName) => (scope === 'repo' ? `/repos/${w.path.owner}/${w.path.repo}` : `/orgs/${w.org}`);
const manager = (w: HookWorld, scope: RunnerScopeName) => (scope === 'repo' ? w.owner : w.orgOwner);

export function runnerOperationTests(operationId: OperationId, scope: RunnerScopeName, verb: RunnerVerb, method: 'GET' | 'POST' | 'DELETE' | 'PATCH'): void {
  let app: TestApp;
  let w: HookWorld;
  /** Runners of this scope, of the other scope, and the site's. */
  let own: TestRunner;
  let other: TestRunner;
  let site: TestRunner;

  const token = async (s: RunnerScopeName, auth: string) => {
    const res = await fetch(`${app.url}/api/v1${base(w, s)}/actions/runners/registration-token`, { method: 'POST', headers: { Authorization: auth } });
    assert.is(res.status, 200);
    return ((await res.json()) as { token: string }).token;
  };
  const call = async (auth: string | null, suffix = '', query = '') => {
    const patch = method === 'PATCH' ? { body: JSON.stringify({ disabled: true }), contentType: { 'Content-Type': 'application/json' } } : undefined;
    const res = await fetch(`${app.url}/api/v1${base(w, scope)}/actions/runners${suffix}${query}`, {
      method, headers: { ...(auth ? { Authorization: auth } : {}), ...patch?.contentType }, body: patch?.body,
    });
    const text = await res.text();
    const body = text ? JSON.parse(text) : undefined;
    assertSpecAnswer(operationId, res.status, body);
    return { status: res.status, body, headers: res.headers };
  };
  const target = () => (verb === 'Get' || verb === 'Delete' || verb === 'Patch' ? `/${own.id}` : verb === 'Token' ? '/registration-token' : '');

  test.before(async () => {
    app = await startApp();
    w = await hookWorld(app);
    own = await registerWith(app, await token(scope, manager(w, scope).auth), ['own']);
    other = await registerWith(app, await token(scope === 'repo' ? 'org' : 'repo', manager(w, scope === 'repo' ? 'org' : 'repo').auth), ['other']);
    site = await registerWith(app, await siteToken(app), ['site']);
  });
  test.after(async () => {
    await app.close();
  });

  if (verb === 'List') {
    test('200: only the scope\'s own runners (not another scope\'s, not the site\'s); disabled; pages', async () => {
      const res = await call(manager(w, scope).auth);
      assert.is(res.status, 200);
      assert.equal(res.body.runners.map((r: { id: number }) => r.id), [own.id]);
      assert.is(res.body.total_count, 1);
      assert.is(res.headers.get('x-total-count'), '1');
      assert.equal((await call(manager(w, scope).auth, '', '?disabled=true')).body.runners, []);
      assert.equal((await call(manager(w, scope).auth, '', '?disabled=false')).body.runners.map((r: { name: string }) => r.name), [own.name]);
      assert.is((await call(manager(w, scope).auth, '', '?disabled=perhaps')).status, 422);
    });
  }
  if (verb === 'Token') {
    test('200: the same token each time; a runner registered with it is the scope\'s and takes only its jobs', async () => {
      const a = await call(manager(w, scope).auth, '/registration-token');
      assert.is(a.status, 200);
      assert.match(a.body.token, /^[0-9a-f]{40}$/);
      assert.is((await call(w.admin.auth, '/registration-token')).body.token, a.body.token);
      assert.is.not(a.body.token, await siteToken(app), 'not the site\'s token');
      const runner = await registerWith(app, a.body.token, ['mine']);
      const [row] = await app.services.deps.db.select().from(actionRunners).where(eq(actionRunners.id, runner.id));
      assert.equal([row!.ownerId > 0, row!.repoId > 0], scope === 'repo' ? [false, true] : [true, false]);
    });
  }
  if (verb === 'Get') {
    test('200: the scope\'s own runner', async () => {
      const res = await call(manager(w, scope).auth, `/${own.id}`);
      assert.is(res.status, 200);
      assert.equal([res.body.id, res.body.name, res.body.labels[0].name], [own.id, own.name, 'own']);
    });
    test('404: another scope\'s runner, the site\'s, an unknown or non-numeric id', async () => {
      for (const id of [other.id, site.id, 9_999_999, 'x']) assert.is((await call(manager(w, scope).auth, `/${id}`)).status, 404, String(id));
    });
  }
  if (verb === 'Patch') {
    test('200: the scope\'s own runner is disabled (it takes no new jobs); 404 for another scope\'s, the site\'s, an unknown id', async () => {
      const res = await call(manager(w, scope).auth, `/${own.id}`);
      assert.is(res.status, 200);
      assert.is(res.body.disabled, true);
      const [row] = await app.services.deps.db.select().from(actionRunners).where(eq(actionRunners.id, own.id));
      assert.is(row!.disabled, true);
      for (const id of [other.id, site.id, 9_999_999, 'x']) assert.is((await call(manager(w, scope).auth, `/${id}`)).status, 404, String(id));
      const untouched = await app.services.deps.db.select().from(actionRunners).where(inArray(actionRunners.id, [other.id, site.id]));
      assert.equal(untouched.map((r) => r.disabled), [false, false]);
    });
  }
  if (verb === 'Delete') {
    test('204: the scope\'s own runner goes; another scope\'s is 404 and stays', async () => {
      for (const who of rolesOf(w, scope).allowed) {
        const victim = await registerWith(app, await token(scope, manager(w, scope).auth), ['victim']);
        assert.is((await call(who.auth, `/${victim.id}`)).status, 204, who.username);
        assert.is((await call(who.auth, `/${victim.id}`)).status, 404, 'gone');
      }
      assert.is((await call(manager(w, scope).auth, `/${other.id}`)).status, 404);
      assert.is((await call(manager(w, scope).auth, `/${site.id}`)).status, 404);
      assert.is((await app.services.deps.db.select().from(actionRunners).where(inArray(actionRunners.id, [other.id, site.id]))).length, 2);
    });
  }

  test('roles: the scope\'s managers and site admins; 403 to the others who can see it, 404 to who cannot, 401 anonymous', async () => {
    const roles = rolesOf(w, scope);
    if (verb !== 'Delete') for (const who of roles.allowed) assert.is((await call(who.auth, target())).status, 200, who.username);
    for (const who of roles.forbidden) assert.is((await call(who.auth, target())).status, 403, who.username);
    for (const who of roles.hidden) assert.is((await call(who.auth, target())).status, 404, who.username);
    // Gitea's reqToken: an anonymous caller is told to sign in (401) before the repository or organization is looked up.
    assert.is((await call(null, target())).status, 401, 'anonymous');
    if (verb === 'Delete') assert.is((await call(manager(w, scope).auth, `/${own.id}`)).status, 204, 'the managers may');
  });

  test.run();
}

async function siteToken(app: TestApp): Promise<string> {
  return app.services.runners.registrationToken();
}
