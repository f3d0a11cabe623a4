// The per-operation tests of Actions secrets and variables, shared by their three scopes: a repository's
// (its admins and site admins manage them), an organization's (its owners and site admins) and the
// signed-in user's own. The roles are those of the runner operations (runnerOpTests.ts); each test file
// names its operation, scope and verb.
import { and, eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import { actionSecrets } from '../../src/db/schema/index.js';
import { startApp, type TestApp } from './harness.js';
import { actor, addCollaborator, pathOf, siteAdmin, userRepo, type Actor, type Repository } from './repos.js';
import { assertSpecAnswer } from './spec-check.js';

export type SettingsScopeName = 'repo' | 'org' | 'user';
export type SecretVerb = 'List' | 'Put' | 'Delete';
export type VariableVerb = 'List' | 'Get' | 'Create' | 'Update' | 'Delete';

/** A private repository with an admin, a writer and a reader collaborator; an organization with its owner and a plain member. */
export interface SettingsWorld {
  owner: Actor;
  repoAdmin: Actor;
  writer: Actor;
  reader: Actor;
  outsider: Actor;
  admin: Actor;
  repo: Repository;
  path: { owner: string; repo: string };
  org: string;
  orgOwner: Actor;
  member: Actor;
}

export async function settingsWorld(app: TestApp): Promise<SettingsWorld> {
  const [owner, repoAdmin, writer, reader, outsider, orgOwner, member, admin] = await Promise.all([
    actor(app), actor(app), actor(app), actor(app), actor(app), actor(app), actor(app), siteAdmin(app),
  ]);
  const repo = await userRepo(app, owner, { private: true });
  await Promise.all([addCollaborator(app, repo, repoAdmin, 'admin'), addCollaborator(app, repo, writer, 'write'), addCollaborator(app, repo, reader, 'read')]);
  const org = (await app.client(orgOwner.auth).POST('/orgs', { body: { username: `sw${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}` } })).data!.username;
  const team = await app.client(orgOwner.auth).POST('/orgs/{org}/teams', { params: { path: { org } }, body: { name: 'readers', permission: 'read', units: ['repo.code'] } });
  assert.is(team.response.status, 201);
  const add = await app.client(orgOwner.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: team.data!.id, username: member.username } } });
  assert.is(add.response.status, 204);
  return { owner, repoAdmin, writer, reader, outsider, admin, repo, path: pathOf(repo), org, orgOwner, member };
}

type HookWorld = SettingsWorld;

const base = (w: HookWorld, scope: SettingsScopeName) => (scope === 'repo' ? `/repos/${w.path.owner}/${w.path.repo}` : scope === 'org' ? `/orgs/${w.org}` : '/user');
const manager = (w: HookWorld, scope: SettingsScopeName) => (scope === 'repo' ? w.owner : scope === 'org' ? w.orgOwner : w.owner);
const tokenScope = { repo: 'repository', org: 'organization', user: 'user' } as const;

/** Who may, who is refused (403) and who cannot see the scope (404); at user level everyone signed in manages their own. */
function roles(w: HookWorld, scope: SettingsScopeName): { allowed: Actor[]; forbidden: Actor[]; hidden: Actor[] } {
  if (scope === 'user') return { allowed: [w.owner, w.writer, w.outsider, w.admin], forbidden: [], hidden: [] };
  if (scope === 'repo') return { allowed: [w.owner, w.repoAdmin, w.admin], forbidden: [w.writer, w.reader], hidden: [w.outsider] };
  return { allowed: [w.orgOwner, w.admin], forbidden: [w.member, w.outsider], hidden: [] };
}

interface Ctx {
  app: TestApp;
  w: HookWorld;
  call(method: string, suffix: string, auth: string | null, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
}

let seq = 0;
const fresh = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${++seq}`.toUpperCase();

function setup(operationId: OperationId, scope: SettingsScopeName, kind: 'secrets' | 'variables', method: string): Ctx {
  const ctx = { app: undefined as unknown as TestApp, w: undefined as unknown as HookWorld } as Ctx;
  ctx.call = async (m, suffix, auth, body) => {
    const res = await fetch(`${ctx.app.url}/api/v1${base(ctx.w, scope)}/actions/${kind}${suffix}`, {
      method: m, headers: { ...(auth ? { Authorization: auth } : {}), ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (m === method) assertSpecAnswer(operationId, res.status, parsed);
    return { status: res.status, body: parsed, headers: res.headers };
  };
  test.before(async () => {
    ctx.app = await startApp();
    ctx.w = await settingsWorld(ctx.app);
  });
  test.after(async () => {
    await ctx.app.close();
  });
  return ctx;
}

/** 401 anonymous, 403 with a token of another scope, and the roles: `attempt` makes one call as `who` and answers its status. */
function roleTest(ctx: Ctx, scope: SettingsScopeName, success: number, attempt: (who: Actor | null, auth: string | null) => Promise<number>): void {
  test('roles: the scope\'s managers and site admins; 403 to the others who can see it, 404 to who cannot, 401 anonymous, 403 a token without the scope', async () => {
    const r = roles(ctx.w, scope);
    for (const who of r.allowed) assert.is(await attempt(who, who.auth), success, who.username);
    for (const who of r.forbidden) assert.is(await attempt(who, who.auth), 403, who.username);
    for (const who of r.hidden) assert.is(await attempt(who, who.auth), 404, who.username);
    assert.is(await attempt(null, null), 401, 'anonymous');
    const m = manager(ctx.w, scope);
    const other = scope === 'user' ? 'repository' : 'user';
    assert.is(await attempt(m, await ctx.app.token(m, [`write:${other}`])), 403, `a token with only write:${other}`);
    assert.is(tokenScope[scope].length > 0, true);
  });
}

export function secretOperationTests(operationId: OperationId, scope: SettingsScopeName, verb: SecretVerb): void {
  const method = verb === 'List' ? 'GET' : verb === 'Put' ? 'PUT' : 'DELETE';
  const ctx = setup(operationId, scope, 'secrets', method);
  const put = (name: string, data: string, auth = manager(ctx.w, scope).auth, description?: string) =>
    ctx.call('PUT', `/${name}`, auth, description === undefined ? { data } : { data, description });

  if (verb === 'Put') {
    test('201 for a new secret, 204 when it replaces one; the name is stored upper-case; the value only encrypted', async () => {
      const name = fresh('tok').toLowerCase();
      assert.is((await put(name, 'hunter2-value', undefined, 'the deploy token')).status, 201);
      assert.is((await put(name.toUpperCase(), 'hunter3-value')).status, 204, 'names are case-insensitive');
      const rows = await ctx.app.services.deps.db.select().from(actionSecrets).where(eq(actionSecrets.name, name.toUpperCase()));
      assert.is(rows.length, 1);
      assert.ok(rows[0]!.data.startsWith('v1.'), 'sealed');
      assert.not.ok(rows[0]!.data.includes('hunter'), 'never stored in the clear');
      assert.is(rows[0]!.description, '', 'the description is what the last PUT said');
      const listed = await ctx.call('GET', '', manager(ctx.w, scope).auth);
      assert.ok(!JSON.stringify(listed.body).includes('hunter'), 'never answered');
    });
    test('422: Gitea\'s name rules; a value past 64 KiB; no data', async () => {
      for (const bad of ['1ABC', 'GITEA_X', 'github_token', 'A-B', 'A%20B', 'Ä']) assert.is((await put(encodeURIComponent(bad), 'v')).status, 422, bad);
      assert.is((await put(fresh('big'), 'x'.repeat(65537))).status, 422);
      assert.is((await put(fresh('edge'), 'x'.repeat(65536))).status, 201, 'exactly 64 KiB');
      assert.is((await ctx.call('PUT', `/${fresh('none')}`, manager(ctx.w, scope).auth, { description: 'x' })).status, 422);
    });
    test('a description is cut at 4096 characters', async () => {
      const name = fresh('desc');
      assert.is((await put(name, 'v', undefined, 'd'.repeat(5000))).status, 201);
      const [row] = await ctx.app.services.deps.db.select().from(actionSecrets).where(eq(actionSecrets.name, name));
      assert.is(row!.description.length, 4096);
    });
    roleTest(ctx, scope, 201, async (_who, auth) => (await put(fresh('role'), 'v', auth as string)).status);
  }

  if (verb === 'List') {
    test('200: the scope\'s secrets by name with description and date, never a value; another scope\'s are not listed; pages', async () => {
      const m = manager(ctx.w, scope);
      const names = [fresh('b'), fresh('a')];
      for (const n of names) assert.is((await put(n, 'secret-value-x', m.auth, 'about it')).status, 201);
      // Another scope's secret of the same kind.
      const otherScope = scope === 'user' ? { ownerId: ctx.w.writer.id, repoId: 0 } : scope === 'org' ? { ownerId: ctx.w.owner.id, repoId: 0 } : { ownerId: 0, repoId: ctx.w.repo.id + 100_000 };
      await ctx.app.services.actionSettings.putSecret(otherScope, 'NOT_MINE', 'x', '');
      const res = await ctx.call('GET', '', m.auth);
      assert.is(res.status, 200);
      assert.equal(res.body.map((s: { name: string }) => s.name), [...names].sort());
      assert.equal(Object.keys(res.body[0]).sort(), ['created_at', 'description', 'name']);
      assert.is(res.body[0].description, 'about it');
      assert.is(res.headers.get('x-total-count'), '2');
      const page = await ctx.call('GET', '?limit=1&page=2', m.auth);
      assert.equal(page.body.map((s: { name: string }) => s.name), [[...names].sort()[1]]);
    });
    roleTest(ctx, scope, 200, async (_who, auth) => (await ctx.call('GET', '', auth)).status);
  }

  if (verb === 'Delete') {
    test('204, then 404; names are case-insensitive; another scope\'s secret of the same name stays', async () => {
      const m = manager(ctx.w, scope);
      const name = fresh('gone');
      await put(name, 'v', m.auth);
      const otherScope = scope === 'user' ? { ownerId: ctx.w.writer.id, repoId: 0 } : { ownerId: 0, repoId: ctx.w.repo.id + 100_000 };
      await ctx.app.services.actionSettings.putSecret(otherScope, name, 'x', '');
      assert.is((await ctx.call('DELETE', `/${name.toLowerCase()}`, m.auth)).status, 204);
      assert.is((await ctx.call('DELETE', `/${name}`, m.auth)).status, 404);
      const left = await ctx.app.services.deps.db.select().from(actionSecrets).where(and(eq(actionSecrets.name, name), eq(actionSecrets.ownerId, otherScope.ownerId)));
      assert.is(left.length, 1);
    });
    roleTest(ctx, scope, 204, async (who, auth) => {
      const name = fresh('del');
      await put(name, 'v', manager(ctx.w, scope).auth);
      // At user level each caller deletes in their own scope.
      if (scope === 'user' && who) await put(name, 'v', who.auth);
      return (await ctx.call('DELETE', `/${name}`, auth)).status;
    });
  }

  test.run();
}

export function variableOperationTests(operationId: OperationId, scope: SettingsScopeName, verb: VariableVerb): void {
  const method = { List: 'GET', Get: 'GET', Create: 'POST', Update: 'PUT', Delete: 'DELETE' }[verb];
  const ctx = setup(operationId, scope, 'variables', method);
  const create = (name: string, value: string, auth = manager(ctx.w, scope).auth, description?: string) =>
    ctx.call('POST', `/${name}`, auth, description === undefined ? { value } : { value, description });
  const ids = () => (scope === 'repo' ? { owner_id: 0, repo_id: ctx.w.repo.id } : { owner_id: scope === 'org' ? -1 : ctx.w.owner.id, repo_id: 0 });

  if (verb === 'Create') {
    test('201 with an empty body; the name upper-case, line ends made \\n; 409 for a name taken (in any case)', async () => {
      const name = fresh('v').toLowerCase();
      const res = await create(name, 'a\r\nb\rc', undefined, 'what it is');
      assert.is(res.status, 201);
      assert.is(res.body, undefined);
      const got = await ctx.call('GET', `/${name}`, manager(ctx.w, scope).auth);
      assert.is(got.body.name, name.toUpperCase());
      assert.is(got.body.data, 'a\nb\nc');
      assert.is(got.body.description, 'what it is');
      assert.is((await create(name.toUpperCase(), 'again')).status, 409);
    });
    test('422: Gitea\'s name rules; a value past 64 KiB; no value', async () => {
      for (const bad of ['9LIVES', 'GITEA_ACTIONS', 'github_sha', 'A.B']) assert.is((await create(encodeURIComponent(bad), 'v')).status, 422, bad);
      assert.is((await create(fresh('big'), 'x'.repeat(65537))).status, 422);
      assert.is((await ctx.call('POST', `/${fresh('none')}`, manager(ctx.w, scope).auth, {})).status, 422);
    });
    roleTest(ctx, scope, 201, async (_who, auth) => (await create(fresh('role'), 'v', auth as string)).status);
  }

  if (verb === 'Get') {
    test('200 with its value and place; any case of its name; 404 for none', async () => {
      const name = fresh('g');
      await create(name, 'the value', undefined, 'desc');
      const res = await ctx.call('GET', `/${name.toLowerCase()}`, manager(ctx.w, scope).auth);
      assert.is(res.status, 200);
      const want = ids();
      if (want.owner_id === -1) want.owner_id = res.body.owner_id;
      assert.equal(res.body, { ...want, name, data: 'the value', description: 'desc' });
      assert.ok(res.body.owner_id > 0 || res.body.repo_id > 0);
      assert.is((await ctx.call('GET', `/${fresh('missing')}`, manager(ctx.w, scope).auth)).status, 404);
    });
    roleTest(ctx, scope, 200, async (who, auth) => {
      const name = fresh('rg');
      await create(name, 'v', scope === 'user' && who ? who.auth : manager(ctx.w, scope).auth);
      return (await ctx.call('GET', `/${name}`, auth)).status;
    });
  }

  if (verb === 'List') {
    test('200: the scope\'s variables by name with their values; another scope\'s are not listed; pages', async () => {
      const m = manager(ctx.w, scope);
      const names = [fresh('y'), fresh('x')];
      for (const n of names) assert.is((await create(n, `value of ${n}`, m.auth)).status, 201);
      const otherScope = scope === 'user' ? { ownerId: ctx.w.writer.id, repoId: 0 } : { ownerId: 0, repoId: ctx.w.repo.id + 100_000 };
      await ctx.app.services.actionSettings.createVariable(otherScope, 'NOT_MINE', 'x', '');
      const res = await ctx.call('GET', '', m.auth);
      assert.is(res.status, 200);
      assert.equal(res.body.map((v: { name: string; data: string }) => [v.name, v.data]), [...names].sort().map((n) => [n, `value of ${n}`]));
      assert.is(res.headers.get('x-total-count'), '2');
      assert.is((await ctx.call('GET', '?limit=1', m.auth)).body.length, 1);
    });
    roleTest(ctx, scope, 200, async (_who, auth) => (await ctx.call('GET', '', auth)).status);
  }

  if (verb === 'Update') {
    test('204: a new value and description; a new name when given; 409 for a name taken; 404 for none; 422 for a bad name', async () => {
      const m = manager(ctx.w, scope);
      const [a, b, c] = [fresh('ua'), fresh('ub'), fresh('uc')];
      await create(a, '1', m.auth);
      await create(b, '2', m.auth);
      const up = await ctx.call('PUT', `/${a.toLowerCase()}`, m.auth, { value: 'one\r\n', description: 'changed' });
      assert.is(up.status, 204);
      assert.equal([(await ctx.call('GET', `/${a}`, m.auth)).body.data, (await ctx.call('GET', `/${a}`, m.auth)).body.description], ['one\n', 'changed']);
      assert.is((await ctx.call('PUT', `/${a}`, m.auth, { name: c.toLowerCase(), value: 'moved' })).status, 204);
      assert.is((await ctx.call('GET', `/${a}`, m.auth)).status, 404);
      assert.is((await ctx.call('GET', `/${c}`, m.auth)).body.data, 'moved');
      assert.is((await ctx.call('PUT', `/${c}`, m.auth, { name: b, value: 'x' })).status, 409);
      assert.is((await ctx.call('PUT', `/${fresh('nope')}`, m.auth, { value: 'x' })).status, 404);
      assert.is((await ctx.call('PUT', `/${c}`, m.auth, { name: 'GITHUB_X', value: 'x' })).status, 422);
      assert.is((await ctx.call('PUT', `/${c}`, m.auth, {})).status, 422);
    });
    roleTest(ctx, scope, 204, async (who, auth) => {
      const name = fresh('ru');
      await create(name, 'v', scope === 'user' && who ? who.auth : manager(ctx.w, scope).auth);
      return (await ctx.call('PUT', `/${name}`, auth, { value: 'w' })).status;
    });
  }

  if (verb === 'Delete') {
    test('204, then 404', async () => {
      const m = manager(ctx.w, scope);
      const name = fresh('d');
      await create(name, 'v', m.auth);
      assert.is((await ctx.call('DELETE', `/${name.toLowerCase()}`, m.auth)).status, 204);
      assert.is((await ctx.call('DELETE', `/${name}`, m.auth)).status, 404);
      assert.is((await ctx.call('GET', `/${name}`, m.auth)).status, 404);
    });
    roleTest(ctx, scope, 204, async (who, auth) => {
      const name = fresh('rd');
      await create(name, 'v', scope === 'user' && who ? who.auth : manager(ctx.w, scope).auth);
      return (await ctx.call('DELETE', `/${name}`, auth)).status;
    });
  }

  test.run();
}
