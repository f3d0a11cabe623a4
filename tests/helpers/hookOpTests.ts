// The per-operation tests of the webhook operations. The same operation exists for three scopes
// (a repository's hooks, an organisation's, the site's), with the same statuses and different roles, so
// each verb's cases are written once here; each operation's test file names its operation and scope.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import { startApp, type TestApp } from './harness.js';
import { deadUrl, hookWorld, rolesOf, type HookWorld } from './hookRoles.js';
import { hookBody, type Hook, type HookDelivery } from './hooks.js';
import type { Actor } from './repos.js';
import { assertSpec } from './spec-check.js';

export type HookScopeName = 'repo' | 'org' | 'admin' | 'user';
export type HookVerb = 'List' | 'Create' | 'Get' | 'Edit' | 'Delete' | 'ListDeliveries' | 'GetDelivery' | 'Redeliver' | 'Test';

interface Scope {
  base: string;
  params(w: HookWorld): Record<string, string>;
  own(w: HookWorld): number;
  /** A hook of another scope (404 here). */
  other(w: HookWorld): number;
  delivery(w: HookWorld): number;
  /** A delivery of another hook (404 here). */
  foreignDelivery(w: HookWorld): number;
  manager(w: HookWorld): Actor;
}

const scopes: Record<HookScopeName, Scope> = {
  repo: {
    base: '/repos/{owner}/{repo}/hooks', params: (w) => ({ ...w.path }), own: (w) => w.hooks.repo.id, other: (w) => w.hooks.otherRepo.id,
    delivery: (w) => w.deliveries.repo, foreignDelivery: (w) => w.deliveries.org, manager: (w) => w.owner,
  },
  org: {
    base: '/orgs/{org}/hooks', params: (w) => ({ org: w.org }), own: (w) => w.hooks.org.id, other: (w) => w.hooks.repo.id,
    delivery: (w) => w.deliveries.org, foreignDelivery: (w) => w.deliveries.repo, manager: (w) => w.orgOwner,
  },
  user: {
    base: '/user/hooks', params: () => ({}), own: (w) => w.hooks.user.id, other: (w) => w.hooks.org.id,
    delivery: (w) => w.deliveries.repo, foreignDelivery: (w) => w.deliveries.org, manager: (w) => w.owner,
  },
  admin: {
    base: '/admin/hooks', params: () => ({}), own: (w) => w.hooks.admin.id, other: (w) => w.hooks.org.id,
    delivery: (w) => w.deliveries.admin, foreignDelivery: (w) => w.deliveries.repo, manager: (w) => w.admin,
  },
};

const verbs: Record<HookVerb, { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; suffix: string }> = {
  List: { method: 'GET', suffix: '' },
  Create: { method: 'POST', suffix: '' },
  Get: { method: 'GET', suffix: '/{id}' },
  Edit: { method: 'PATCH', suffix: '/{id}' },
  Delete: { method: 'DELETE', suffix: '/{id}' },
  ListDeliveries: { method: 'GET', suffix: '/{id}/deliveries' },
  GetDelivery: { method: 'GET', suffix: '/{id}/deliveries/{delivery_id}' },
  Redeliver: { method: 'POST', suffix: '/{id}/deliveries/{delivery_id}/attempts' },
  Test: { method: 'POST', suffix: '/{id}/tests' },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { data?: any; error?: any; response: Response };

export function hookOperationTests(op: OperationId, scopeName: HookScopeName, verb: HookVerb): void {
  const scope = scopes[scopeName];
  const { method, suffix } = verbs[verb];
  const path = scope.base + suffix;
  let app: TestApp;
  let w: HookWorld;
  test.before(async () => {
    app = await startApp();
    w = await hookWorld(app);
  });
  test.after(async () => {
    await app?.close();
  });

  /** The operation as `auth` (undefined: anonymous); ids default to the scope's own hook and delivery. */
  const call = (auth: string | undefined, o: { id?: number; delivery_id?: number; body?: unknown; query?: Record<string, string>; params?: Record<string, string> } = {}): Promise<Answer> => {
    const pathParams = { ...scope.params(w), ...o.params, ...(suffix.includes('{id}') ? { id: o.id ?? scope.own(w) } : {}), ...(suffix.includes('{delivery_id}') ? { delivery_id: o.delivery_id ?? scope.delivery(w) } : {}) };
    const client = app.client(auth) as unknown as Record<string, (p: string, init: unknown) => Promise<Answer>>;
    return client[method]!(path, { params: { path: pathParams, query: o.query }, body: o.body });
  };
  const expect = (r: Answer, status: number, label = '') => {
    assert.is(r.response.status, status, `${label} ${JSON.stringify(r.error ?? '')}`);
    assertSpec(op, r);
  };
  const roles = () => rolesOf(w, scopeName);
  const notHere = async (what: Array<{ id?: number; delivery_id?: number }>) => {
    for (const o of what) expect(await call(scope.manager(w).auth, { ...o, body: verb === 'Edit' ? {} : undefined }), 404, JSON.stringify(o));
  };

  switch (verb) {
    case 'List':
      test("200: the scope's hooks, oldest first, with X-Total-Count; never a secret", async () => {
        for (const who of roles().allowed) {
          const r = await call(who.auth, { query: scopeName === 'admin' ? { type: 'all' } : {} });
          expect(r, 200, who.username);
          const ids = (r.data as Hook[]).map((h) => h.id);
          assert.ok(ids.includes(scope.own(w)));
          assert.not.ok(ids.includes(scope.other(w)), "another scope's hook is not listed");
          assert.is(r.response.headers.get('x-total-count'), String(ids.length));
          assert.not.ok(JSON.stringify(r.data).includes('secret'));
        }
      });
      if (scopeName === 'admin') {
        test('type: system (the default) and default select their kind; anything else is 422', async () => {
          assert.ok(((await call(w.admin.auth)).data as Hook[]).some((h) => h.id === w.hooks.admin.id));
          assert.not.ok(((await call(w.admin.auth, { query: { type: 'default' } })).data as Hook[]).some((h) => h.id === w.hooks.admin.id));
          expect(await call(w.admin.auth, { query: { type: 'bogus' } }), 422);
        });
      }
      break;
    case 'Create':
      test('201: the created hook as stored (defaults: inactive, push); the secret is never returned', async () => {
        for (const who of roles().allowed) {
          const r = await call(who.auth, { body: { type: 'gitea', config: { url: deadUrl, content_type: 'json', secret: 'hidden-value' }, name: 'n' } });
          expect(r, 201, who.username);
          const h = r.data as Hook;
          assert.equal([h.type, h.active, h.events, h.config.url, h.name], ['gitea', false, ['push'], deadUrl, 'n']);
          assert.not.ok(JSON.stringify(h).includes('hidden-value'));
        }
      });
      if (scopeName === 'user') {
        test("the user's hook fires for every repository they own, and for nobody else's", async () => {
          const { hookDeliveries } = await import('../../src/db/schema/index.js');
          const { eq } = await import('drizzle-orm');
          const delivered = async () => (await app.services.deps.db.select().from(hookDeliveries).where(eq(hookDeliveries.hookId, w.hooks.user.id))).length;
          const open = async (who: Actor, path: { owner: string; repo: string }) =>
            assert.is((await app.client(who.auth).POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'fires?' } })).response.status, 201);
          const before = await delivered();
          await open(w.owner, w.path);
          await open(w.writer, w.other);
          assert.is(await delivered(), before + 2, "both of the owner's repositories, whoever acts");
          const elsewhere = await app.client(w.writer.auth).POST('/user/repos', { body: { name: `u${Date.now().toString(36)}` } });
          await open(w.writer, { owner: w.writer.username, repo: elsewhere.data!.name });
          assert.is(await delivered(), before + 2, "another user's repository");
        });
      }
      test("422 and 400: Gitea's checks", async () => {
        const auth = scope.manager(w).auth;
        expect(await call(auth, { body: { type: 'gitea', config: { url: deadUrl } } }), 422, 'no content_type');
        const slack = await call(auth, { body: { type: 'slack', config: { url: deadUrl, content_type: 'json' } } });
        expect(slack, 422);
        assert.is(slack.error.message, 'Missing config option: channel');
        expect(await call(auth, { body: { type: 'slack', config: { url: deadUrl, content_type: 'json', channel: 'two words' } } }), 400, 'channel');
        expect(await call(auth, { body: { type: 'gitea', config: { url: deadUrl, content_type: 'json' }, branch_filter: '{open' } }), 422, 'glob');
      });
      break;
    case 'Get':
      test('200: the hook', async () => {
        for (const who of roles().allowed) {
          const r = await call(who.auth);
          expect(r, 200, who.username);
          assert.is((r.data as Hook).id, scope.own(w));
        }
      });
      test('404: an unknown id, and a hook of another scope', () => notHere([{ id: 987654 }, { id: scope.other(w) }]));
      break;
    case 'Edit':
      test('200: only what is named changes', async () => {
        for (const who of roles().allowed) {
          const r = await call(who.auth, { body: { active: false, events: ['issues'] } });
          expect(r, 200, who.username);
          const h = r.data as Hook;
          assert.is(h.active, false);
          assert.ok(h.events.includes('issue_comment'));
          assert.is(h.config.url, deadUrl);
        }
      });
      test('404: an unknown id, and a hook of another scope; 422: a url that is not http(s)', async () => {
        await notHere([{ id: 987654 }, { id: scope.other(w) }]);
        expect(await call(scope.manager(w).auth, { body: { config: { url: 'ftp://example.com/' } } }), 422);
      });
      break;
    case 'Delete':
      test('204: deleted, then 404', async () => {
        for (const who of roles().allowed) {
          const made = await (app.client(scope.manager(w).auth) as unknown as Record<string, (p: string, i: unknown) => Promise<Answer>>).POST!(scope.base, { params: { path: scope.params(w) }, body: hookBody(deadUrl) });
          assert.is(made.response.status, 201);
          expect(await call(who.auth, { id: made.data.id }), 204, who.username);
          assert.is((await call(who.auth, { id: made.data.id })).response.status, 404, 'gone');
        }
      });
      test('404: an unknown id, and a hook of another scope', () => notHere([{ id: 987654 }, { id: scope.other(w) }]));
      break;
    case 'ListDeliveries':
      test('200: newest first, with X-Total-Count', async () => {
        for (const who of roles().allowed) {
          const r = await call(who.auth);
          expect(r, 200, who.username);
          const list = r.data as HookDelivery[];
          assert.ok(list.some((d) => d.id === scope.delivery(w)));
          assert.is(list[0]!.state, 'pending');
          assert.is(r.response.headers.get('x-total-count'), String(list.length));
        }
      });
      test('404: an unknown hook, and a hook of another scope', () => notHere([{ id: 987654 }, { id: scope.other(w) }]));
      break;
    case 'GetDelivery':
      test('200: the delivery with its payload and attempts', async () => {
        for (const who of roles().allowed) {
          const r = await call(who.auth);
          expect(r, 200, who.username);
          assert.is(r.data.id, scope.delivery(w));
          assert.ok(JSON.parse(r.data.request.payload).repository, 'the payload sent');
          assert.equal(r.data.attempts, []);
        }
      });
      test('404: an unknown delivery, and a delivery of another hook', () => notHere([{ delivery_id: 987654 }, { delivery_id: scope.foreignDelivery(w) }]));
      break;
    case 'Redeliver':
      test('202: a new delivery of the same payload, queued', async () => {
        for (const who of roles().allowed) {
          const r = await call(who.auth);
          expect(r, 202, who.username);
          assert.not.equal(r.data.id, scope.delivery(w));
          assert.is(r.data.state, 'pending');
        }
      });
      test('404: an unknown delivery, and a delivery of another hook', () => notHere([{ delivery_id: 987654 }, { delivery_id: scope.foreignDelivery(w) }]));
      break;
    case 'Test':
      test('204: a push delivery is queued for the hook', async () => {
        const deliveries = async () => (await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/hooks/{id}/deliveries', { params: { path: { ...w.path, id: w.hooks.repo.id } } })).data!;
        for (const who of roles().allowed) {
          const before = (await deliveries()).length;
          expect(await call(who.auth), 204, who.username);
          const after = await deliveries();
          assert.is(after.length, before + 1);
          assert.is(after[0]!.event, 'push');
        }
      });
      test('404: an unknown hook, and a hook of another repository', () => notHere([{ id: 987654 }, { id: scope.other(w) }]));
      break;
  }

  test('401: anonymous callers', async () => {
    expect(await call(undefined, { body: verb === 'Create' ? hookBody(deadUrl) : verb === 'Edit' ? {} : undefined }), 401);
  });
  const anyBody = () => (verb === 'Create' ? hookBody(deadUrl) : verb === 'Edit' ? {} : undefined);
  if (scopeName === 'user') {
    test('403: a token without the user scope', async () => {
      const token = await app.token(w.owner, [method === 'GET' ? 'read:repository' : 'write:repository']);
      expect(await call(token, { body: anyBody() }), 403);
    });
    if (suffix.includes('{id}')) {
      test("404: another user's hook", async () => {
        expect(await call(w.writer.auth, { body: anyBody() }), 404, 'another user');
        expect(await call(w.admin.auth, { body: anyBody() }), 404, 'a site administrator has hooks of their own');
      });
    }
  } else {
    test('403: signed in without the right to manage these hooks', async () => {
      for (const who of roles().forbidden) expect(await call(who.auth, { body: anyBody() }), 403, who.username);
    });
  }
  if (scopeName === 'repo') {
    test('404: a private repository the caller cannot see', async () => {
      for (const who of roles().hidden) expect(await call(who.auth, { body: verb === 'Create' ? hookBody(deadUrl) : verb === 'Edit' ? {} : undefined }), 404, who.username);
    });
  }
  if (scopeName === 'org') {
    test('404: an unknown organisation', async () => {
      expect(await call(w.admin.auth, { params: { org: 'no-such-org-x' }, body: verb === 'Create' ? hookBody(deadUrl) : verb === 'Edit' ? {} : undefined }), 404);
    });
  }
  test.run();
}
