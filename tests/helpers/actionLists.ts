// The per-operation tests of the Actions lists by owner: an organization's runs and jobs (its owners and
// site admins) and the signed-in user's (the repositories the caller owns): only that owner's, filters,
// pages, the roles.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import { seedRuns } from './actions.js';
import { startApp, type TestApp } from './harness.js';
import { actor, orgRepo, orgWorld, siteAdmin, userRepo, type Actor, type OrgWorld } from './repos.js';
import { assertSpecAnswer } from './spec-check.js';

export function ownerListTests(operationId: OperationId, scope: 'org' | 'user', kind: 'runs' | 'jobs'): void {
  let app: TestApp;
  let o: OrgWorld;
  let me: Actor;
  let mine: number[];
  const path = () => (scope === 'org' ? `/orgs/${o.name}/actions/${kind}` : `/user/actions/${kind}`);
  const call = async (auth: string | null, query = '') => {
    const res = await fetch(`${app.url}/api/v1${path()}${query}`, { headers: auth ? { Authorization: auth } : {} });
    const text = await res.text();
    const body = text ? JSON.parse(text) : undefined;
    assertSpecAnswer(operationId, res.status, body);
    return { status: res.status, body, headers: res.headers };
  };
  const ids = (body: { workflow_runs?: Array<{ id: number }>; jobs?: Array<{ id: number }> }) => (body.workflow_runs ?? body.jobs ?? []).map((x) => x.id);

  test.before(async () => {
    app = await startApp();
    o = await orgWorld(app);
    me = scope === 'org' ? o.owner : await actor(app);
    const repo = scope === 'org' ? await orgRepo(app, o.name, o.owner) : await userRepo(app, me);
    const elsewhere = await userRepo(app, await actor(app));
    const seeded = await seedRuns(app, { id: repo.id, owner: { id: repo.owner!.id } }, me.id, [{ status: 'success' }, { status: 'failure' }]);
    await seedRuns(app, { id: elsewhere.id, owner: { id: elsewhere.owner!.id } }, me.id, [{ status: 'success' }]);
    mine = seeded.map((s) => (kind === 'runs' ? s.run.id : s.jobs[0]!.id));
  });
  test.after(async () => {
    await app.close();
  });

  test('200: only the owner\'s; the status filter; pages', async () => {
    const all = await call(me.auth);
    assert.is(all.status, 200);
    assert.equal(ids(all.body).sort((a: number, b: number) => a - b), [...mine].sort((a, b) => a - b));
    assert.is(all.body.total_count, 2);
    assert.is(all.headers.get('x-total-count'), '2');
    assert.equal(ids((await call(me.auth, '?status=failure')).body), [mine[1]]);
    assert.is(ids((await call(me.auth, '?limit=1')).body).length, 1);
    assert.is((await call(me.auth, '?status=bogus')).status, 422);
  });

  test('roles: 401 anonymous, 403 a token without the scope' + (scope === 'org' ? ', 403 members and outsiders, 200 site admins' : ''), async () => {
    assert.is((await call(null)).status, 401);
    assert.is((await call(await app.token(me, [scope === 'org' ? 'write:user' : 'write:repository']))).status, 403);
    if (scope === 'org') {
      for (const who of [o.member, o.outsider, o.reader]) assert.is((await call(who.auth)).status, 403, who.username);
      assert.equal(ids((await call((await siteAdmin(app)).auth)).body).length, 2);
    } else {
      assert.equal(ids((await call((await actor(app)).auth)).body), [], 'another user has none');
    }
  });

  test.run();
}
