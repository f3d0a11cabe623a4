// Webhooks end to end: a real receiver on loopback gets Gitea's headers, a signature that matches the
// body and the secret, each event's payload; failures are retried and recorded; 4xx is final; filters,
// org, system and default hooks; redelivery and the test delivery; the default allow list refuses loopback.
import { createHmac } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hookAttempts, hookDeliveries } from '../../src/db/schema/index.js';
import { eventsOf } from '../helpers/events.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { adminHook, eventually, fastHooks, hookBody, orgHook, receiver, repoHook, type Receiver } from '../helpers/hooks.js';
import { newComment, newIssue, type Repo } from '../helpers/issues.js';
import { addFile, patch } from '../helpers/pulls.js';
import { actor, orgRepo, pathOf, siteAdmin, userRepo, type Actor } from '../helpers/repos.js';

let app: TestApp;
let owner: Actor;
let admin: Actor;
let rx: Receiver;

test.before(async () => {
  app = await startApp(fastHooks, { workers: true });
  [owner, admin] = await Promise.all([actor(app), siteAdmin(app)]);
  rx = await receiver();
});
test.after(async () => {
  await rx?.close();
  await app?.close();
});

const newRepo = async (body: Parameters<typeof userRepo>[2] = {}): Promise<Repo> => {
  const r = await userRepo(app, owner, { auto_init: true, ...body });
  return { ...r, path: pathOf(r) };
};
const json = (r: { body: string }) => JSON.parse(r.body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const forRepo = (repo: Repo, type: string) => rx.of(type).filter((r) => json(r).repository?.full_name === repo.full_name);
const stateOf = async (guid: string) => (await app.services.deps.db.select().from(hookDeliveries).where(eq(hookDeliveries.guid, guid)))[0]!;

test('push: Gitea, Gogs and GitHub headers, signatures of the body with the secret, the push payload', async () => {
  const repo = await newRepo();
  await repoHook(app, owner.auth, repo.path, hookBody(rx.url, { config: { url: rx.url, content_type: 'json', secret: 's3cret' }, authorization_header: 'Bearer xyz' }));
  const sha = await patch(app, repo, owner, addFile('a.txt', ['one']));
  const [r] = await eventually(() => forRepo(repo, 'push').length > 0 && forRepo(repo, 'push'), 'the push delivery');
  const h = r!.headers;
  assert.is(h['x-gitea-event'], 'push');
  assert.is(h['x-gogs-event'], 'push');
  assert.is(h['x-github-event'], 'push');
  assert.is(h['x-gitea-delivery'], h['x-github-delivery']);
  assert.match(String(h['x-gitea-delivery']), /^[0-9a-f-]{36}$/);
  const sha256 = createHmac('sha256', 's3cret').update(r!.body).digest('hex');
  assert.is(h['x-gitea-signature'], sha256);
  assert.is(h['x-hub-signature-256'], `sha256=${sha256}`);
  assert.is(h['x-hub-signature'], `sha1=${createHmac('sha1', 's3cret').update(r!.body).digest('hex')}`);
  assert.is(h.authorization, 'Bearer xyz');
  assert.is(h['content-type'], 'application/json');
  const body = json(r!);
  assert.is(body.ref, 'refs/heads/main');
  assert.is(body.after, sha);
  assert.is(body.total_commits, 1);
  assert.is(body.commits[0].id, sha);
  assert.equal(body.commits[0].added, ['a.txt']);
  assert.is(body.head_commit.id, sha);
  assert.is(body.sender.login, owner.username);
  assert.is(body.pusher.login, owner.username);
  assert.ok(body.compare_url.endsWith(`/compare/${body.before}...${sha}`));
  const d = await eventually(async () => { const s = await stateOf(String(h['x-gitea-delivery'])); return s.state === 'delivered' && s; }, 'delivered state');
  assert.is(d.attempts, 1);
});

test('issues and comments: payloads, the events a hook chose, form content type', async () => {
  const repo = await newRepo();
  await repoHook(app, owner.auth, repo.path, hookBody(rx.url, { events: ['issues', 'nonsense'], config: { url: rx.url, content_type: 'form' } }));
  const issue = await newIssue(app, repo, owner, { title: 'hooked' });
  await newComment(app, repo, issue.number, owner, 'said');
  await patch(app, repo, owner, addFile('b.txt', ['x']));
  const opened = await eventually(() => forRepoForm(repo, 'issues')[0], 'issues delivery');
  assert.is(opened.headers['content-type'], 'application/x-www-form-urlencoded');
  const payload = JSON.parse(decodeURIComponent(opened.body.slice('payload='.length)));
  assert.equal([payload.action, payload.number, payload.issue.title], ['opened', issue.number, 'hooked']);
  const comment = await eventually(() => forRepoForm(repo, 'issue_comment')[0], 'comment delivery');
  const c = JSON.parse(decodeURIComponent(comment.body.slice('payload='.length)));
  assert.equal([c.action, c.comment.body, c.is_pull], ['created', 'said', false]);
  assert.is(comment.headers['x-gitea-event'], 'issue_comment');
  // Settled: the push was never sent to a hook that chose issues only.
  await eventually(async () => (await app.services.deps.db.select().from(hookDeliveries)).every((d) => d.state !== 'pending'), 'queue drained');
  assert.is(forRepoForm(repo, 'push').length, 0);
});
const forRepoForm = (repo: Repo, type: string) =>
  rx.of(type).filter((r) => r.body.startsWith('payload=') && JSON.parse(decodeURIComponent(r.body.slice(8))).repository?.full_name === repo.full_name);

test('branch_filter: a glob on branch names', async () => {
  const repo = await newRepo();
  await repoHook(app, owner.auth, repo.path, hookBody(rx.url, { branch_filter: '{release/*,hotfix}' }));
  await patch(app, repo, owner, addFile('m.txt', ['m']));
  await patch(app, repo, owner, addFile('r.txt', ['r']), { newBranch: 'release/1.0' });
  const got = await eventually(() => forRepo(repo, 'push').length > 0 && forRepo(repo, 'push'), 'release push');
  assert.is(json(got[0]!).ref, 'refs/heads/release/1.0');
  await eventually(async () => (await app.services.deps.db.select().from(hookDeliveries)).every((d) => d.state !== 'pending'), 'queue drained');
  assert.equal(forRepo(repo, 'push').map((r) => json(r).ref), ['refs/heads/release/1.0'], 'main did not match');
});

test('a branch made where no hook listens is recorded without a transaction; a hook made then hears the next, deleted it hears nothing', async () => {
  const repo = await newRepo();
  const branch = async (name: string) => {
    const r = await app.client(owner.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: repo.path }, body: { new_branch_name: name } });
    assert.is(r.response.status, 201);
  };
  await branch('quiet'); // no hook, no feed row, no workflow: one statement records it
  assert.equal((await eventsOf(app, repo.id)).kinds.slice(1), ['create', 'push']);
  const hook = await repoHook(app, owner.auth, repo.path, hookBody(rx.url, { events: ['create'] }));
  await branch('heard'); // the statement's guard sees the hook: recorded in a transaction, with its delivery
  const got = await eventually(() => forRepo(repo, 'create').length > 0 && forRepo(repo, 'create'), 'create delivery');
  assert.equal(got.map((r) => json(r).ref), ['heard'], 'only the branch made once the hook existed');
  const d = await app.client(owner.auth).DELETE('/repos/{owner}/{repo}/hooks/{id}', { params: { path: { ...repo.path, id: hook.id } } });
  assert.is(d.response.status, 204);
  await branch('after');
  assert.equal((await eventsOf(app, repo.id)).kinds.slice(1), ['create', 'push', 'create', 'push', 'create', 'push'], 'every branch recorded');
  await eventually(async () => (await app.services.deps.db.select().from(hookDeliveries)).every((d) => d.state !== 'pending'), 'queue drained');
  assert.equal(forRepo(repo, 'create').map((r) => json(r).ref), ['heard'], 'the hook heard only the branch made while it existed');
});

test('a receiver that fails, then recovers: retried with backoff until delivered, every attempt recorded', async () => {
  const repo = await newRepo();
  const hook = await repoHook(app, owner.auth, repo.path, hookBody(rx.url, { events: ['create'] }));
  rx.answer(503, 500, 429);
  const b = await app.client(owner.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: repo.path }, body: { new_branch_name: 'retry-me' } });
  assert.is(b.response.status, 201);
  const deliveries = await eventually(async () => {
    const r = await app.client(owner.auth).GET('/repos/{owner}/{repo}/hooks/{id}/deliveries', { params: { path: { ...repo.path, id: hook.id } } });
    return r.data?.[0]?.state === 'delivered' && r.data;
  }, 'delivered after retries');
  assert.is(deliveries[0]!.attempts, 4);
  const detail = await app.client(owner.auth).GET('/repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}', { params: { path: { ...repo.path, id: hook.id, delivery_id: deliveries[0]!.id } } });
  assert.equal(detail.data!.attempts.map((a) => a.status_code), [503, 500, 429, 200]);
  assert.is(JSON.parse(detail.data!.request.payload).ref, 'retry-me');
  // Attempt n+1 is not taken before attempt n started plus its backoff (40 ms doubling: fastHooks); the
  // API shows whole seconds, the rows keep milliseconds.
  const rows = await app.services.deps.db.select().from(hookAttempts).where(eq(hookAttempts.deliveryId, deliveries[0]!.id)).orderBy(asc(hookAttempts.id));
  const times = rows.map((a) => a.startedAt.getTime());
  for (let i = 0; i < 3; i++) assert.ok(times[i + 1]! - times[i]! >= 40 * 2 ** i - 2, `wait ${i + 1} is at least ${40 * 2 ** i} ms`);
});

test('a receiver that is down (connection refused) gets everything once it is back', async () => {
  const down = await receiver();
  const repo = await newRepo();
  await repoHook(app, owner.auth, repo.path, hookBody(down.url, { events: ['create'] }));
  await down.close();
  for (const name of ['d1', 'd2']) {
    const b = await app.client(owner.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: repo.path }, body: { new_branch_name: name } });
    assert.is(b.response.status, 201);
  }
  await eventually(async () => (await app.services.deps.db.select().from(hookDeliveries)).some((d) => d.attempts >= 2 && d.state === 'pending'), 'failed attempts');
  await down.reopen();
  await eventually(() => down.received.length >= 2, 'both deliveries after the receiver is back');
  assert.equal(down.received.map((r) => json(r).ref).sort(), ['d1', 'd2']);
  await down.close();
});

test('a 4xx answer is final: failed after one attempt', async () => {
  const repo = await newRepo();
  const hook = await repoHook(app, owner.auth, repo.path, hookBody(rx.url, { events: ['create'] }));
  rx.answer(404);
  await app.client(owner.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: repo.path }, body: { new_branch_name: 'nope' } });
  const d = await eventually(async () => {
    const r = await app.client(owner.auth).GET('/repos/{owner}/{repo}/hooks/{id}/deliveries', { params: { path: { ...repo.path, id: hook.id } } });
    return r.data?.[0]?.state === 'failed' && r.data[0];
  }, 'failed');
  assert.equal([d.attempts, d.status_code], [1, 404]);
});

test('redelivery sends the same payload again under a new delivery id; the test delivery is a push', async () => {
  const repo = await newRepo();
  const hook = await repoHook(app, owner.auth, repo.path, hookBody(rx.url, { events: ['create'] }));
  await app.client(owner.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: repo.path }, body: { new_branch_name: 'again' } });
  const first = await eventually(() => forRepo(repo, 'create')[0], 'first delivery');
  const list = await app.client(owner.auth).GET('/repos/{owner}/{repo}/hooks/{id}/deliveries', { params: { path: { ...repo.path, id: hook.id } } });
  const re = await app.client(owner.auth).POST('/repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}/attempts', { params: { path: { ...repo.path, id: hook.id, delivery_id: list.data![0]!.id } } });
  assert.is(re.response.status, 202);
  const second = await eventually(() => forRepo(repo, 'create')[1], 'redelivery');
  assert.is(second.body, first.body);
  assert.not.equal(second.headers['x-gitea-delivery'], first.headers['x-gitea-delivery']);
  const t = await app.client(owner.auth).POST('/repos/{owner}/{repo}/hooks/{id}/tests', { params: { path: { ...repo.path, id: hook.id } } });
  assert.is(t.response.status, 204);
  const push = await eventually(() => forRepo(repo, 'push')[0], 'test push');
  assert.is(json(push).ref, 'refs/heads/main');
  assert.is(json(push).commits.length, 1);
});

test('organisation hooks fire for its repositories (deletion included); system hooks for all; default hooks are copied into new repositories', async () => {
  const org = await app.client(owner.auth).POST('/orgs', { body: { username: `hookorg${Date.now().toString(36)}` } });
  const orgName = org.data!.username;
  const system = await receiver();
  const defaults = await receiver();
  await orgHook(app, owner.auth, orgName, hookBody(rx.url, { events: ['repository'] }));
  await adminHook(app, admin.auth, hookBody(system.url, { events: ['repository'], config: { url: system.url, content_type: 'json', is_system_webhook: 'true' } }));
  const dflt = await adminHook(app, admin.auth, hookBody(defaults.url, { events: ['issues'] }));
  const made = await orgRepo(app, orgName, owner, { auto_init: true });
  const repo: Repo = { ...made, path: pathOf(made) };
  const created = await eventually(() => forRepo(repo, 'repository')[0], 'org hook: created');
  assert.equal([json(created).action, json(created).organization.username], ['created', orgName]);
  await eventually(() => system.received.find((r) => json(r).repository.full_name === repo.full_name), 'system hook: created');
  await newIssue(app, repo, owner);
  await eventually(() => defaults.received.find((r) => json(r).repository.full_name === repo.full_name), 'default hook copied into the new repository');
  const hooks = await app.client(owner.auth).GET('/repos/{owner}/{repo}/hooks', { params: { path: repo.path } });
  assert.equal(hooks.data!.map((h) => h.config.url), [defaults.url]);
  const d = await app.client(owner.auth).DELETE('/repos/{owner}/{repo}', { params: { path: repo.path } });
  assert.is(d.response.status, 204);
  const deleted = await eventually(() => forRepo(repo, 'repository').find((r) => json(r).action === 'deleted'), 'org hook: deleted');
  assert.is(json(deleted).repository.full_name, repo.full_name);
  const del = await app.client(admin.auth).DELETE('/admin/hooks/{id}', { params: { path: { id: dflt.id } } });
  assert.is(del.response.status, 204);
  await system.close();
  await defaults.close();
});

test('chat hooks get their system\'s format: slack', async () => {
  const repo = await newRepo();
  await repoHook(app, owner.auth, repo.path, { type: 'slack', active: true, events: ['create'], config: { url: rx.url, content_type: 'json', channel: '#dev', username: 'bot' } });
  await app.client(owner.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: repo.path }, body: { new_branch_name: 'chatty' } });
  const msg = await eventually(() => rx.of('create').map(json).find((b) => b.channel === '#dev' && String(b.text).includes(repo.name)), 'slack message');
  assert.is(msg.username, 'bot');
  assert.match(msg.text, /branch chatty created/);
});

test('every event type reaches a hook that chose it, each with its payload', async () => {
  const all = await receiver();
  const repo = await newRepo();
  await repoHook(app, owner.auth, repo.path, hookBody(all.url, { events: ['push', 'create', 'delete', 'issues', 'pull_request', 'wiki', 'repository'] }));
  const label = (await app.client(owner.auth).POST('/repos/{owner}/{repo}/labels', { params: { path: repo.path }, body: { name: 'bug', color: '#ff0000' } })).data!;
  const milestone = (await app.client(owner.auth).POST('/repos/{owner}/{repo}/milestones', { params: { path: repo.path }, body: { title: 'm1' } })).data!;
  const issue = await newIssue(app, repo, owner, { title: 'one' });
  const edit = (body: object) => app.client(owner.auth).PATCH('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...repo.path, index: issue.number } }, body });
  await edit({ title: 'one!' });
  await edit({ milestone: milestone.id });
  await edit({ assignees: [owner.username] });
  await edit({ state: 'closed' });
  await patch(app, repo, owner, addFile('p.txt', ['p']), { newBranch: 'topic' });
  const pr = (await app.client(owner.auth).POST('/repos/{owner}/{repo}/pulls', { params: { path: repo.path }, body: { head: 'topic', base: 'main', title: 'pr' } })).data!;
  await app.client(owner.auth).PATCH('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...repo.path, index: pr.number } }, body: { labels: [label.id] } });
  await patch(app, repo, owner, addFile('q.txt', ['q']), { branch: 'topic' });
  await app.client(owner.auth).POST('/repos/{owner}/{repo}/wiki/new', { params: { path: repo.path }, body: { title: 'Page', content_base64: Buffer.from('x').toString('base64') } });
  await app.client(owner.auth).DELETE('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...repo.path, branch: 'topic' } } });
  await app.client(owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: repo.path }, body: { description: 'changed' } });
  const expected = ['issues', 'issue_milestone', 'issue_assign', 'create', 'push', 'pull_request', 'pull_request_label', 'pull_request_sync', 'wiki', 'delete', 'repository'];
  // Three issue deliveries; a batch is sent in parallel, so they may arrive in any order.
  await eventually(() => expected.every((t) => all.of(t).length > 0) && all.of('issues').length >= 3, `deliveries of ${expected.join(', ')}`);
  const body = (t: string, i = 0) => json(all.of(t)[i]!);
  assert.equal(all.of('issues').map((r) => json(r).action).sort(), ['closed', 'edited', 'opened']);
  assert.equal(all.of('issues').map(json).find((b) => b.action === 'edited')?.changes, { title: { from: 'one' } });
  assert.equal([body('issue_milestone').action, body('issue_milestone').issue.milestone.title], ['milestoned', 'm1']);
  assert.equal([body('issue_assign').action, body('issue_assign').issue.assignees[0].login], ['assigned', owner.username]);
  assert.is(all.of('issue_assign')[0]!.headers['x-gitea-event'], 'issues');
  assert.equal([body('pull_request').action, body('pull_request').number, body('pull_request').pull_request.head.ref], ['opened', pr.number, 'topic']);
  assert.equal([body('pull_request_label').action, body('pull_request_label').pull_request.labels[0].name], ['label_updated', 'bug']);
  assert.is(all.of('pull_request_label')[0]!.headers['x-gitea-event'], 'pull_request');
  assert.is(body('pull_request_sync').action, 'synchronized');
  assert.equal([body('wiki').action, body('wiki').page], ['created', 'Page']);
  assert.equal([body('delete').ref, body('delete').ref_type, body('delete').pusher_type], ['topic', 'branch', 'user']);
  assert.equal([body('create').ref, body('create').ref_type], ['topic', 'branch']);
  assert.is(body('repository').action, 'edited');
  for (const r of all.received) assert.is(json(r).sender.login, owner.username, String(r.headers['x-gitea-event-type']));
  await all.close();
});

test('a delivery whose worker died mid-attempt is taken again when its lease ends, and not before', async () => {
  const repo = await newRepo();
  const hook = await repoHook(app, owner.auth, repo.path, hookBody(rx.url, { events: ['create'] }));
  const { db } = app.services.deps;
  const now = Date.now();
  // Claimed by a worker that died: one with its lease still running, one whose lease has ended.
  await db.insert(hookDeliveries).values([
    { hookId: hook.id, eventId: 0, guid: 'lease-running', event: 'create', eventType: 'create', payload: '{"n":"running"}', attempts: 1, leaseUntil: new Date(now + 3_600_000) },
    { hookId: hook.id, eventId: 0, guid: 'lease-ended', event: 'create', eventType: 'create', payload: '{"n":"ended"}', attempts: 1, leaseUntil: new Date(now - 1000) },
  ]);
  const got = await eventually(() => rx.received.find((r) => r.headers['x-gitea-delivery'] === 'lease-ended'), 'the delivery whose lease ended');
  assert.is(got.body, '{"n":"ended"}');
  const after = await eventually(async () => { const d = await stateOf('lease-ended'); return d.state === 'delivered' && d; }, 'delivered');
  assert.is(after.attempts, 2, 'the dead attempt counts');
  const held = await stateOf('lease-running');
  assert.equal([held.state, held.attempts], ['pending', 1], 'a running lease is left alone');
  assert.not.ok(rx.received.some((r) => r.headers['x-gitea-delivery'] === 'lease-running'));
});

test('retention: finished deliveries older than WEBHOOK_DELIVERY_RETENTION_DAYS go, pending ones stay', async () => {
  const repo = await newRepo();
  const hook = await repoHook(app, owner.auth, repo.path, hookBody(rx.url, { events: ['create'] }));
  const { db } = app.services.deps;
  const old = new Date(Date.now() - 8 * 86_400_000);
  const rows = await db.insert(hookDeliveries).values([
    { hookId: hook.id, eventId: 0, guid: 'old-done', event: 'push', eventType: 'push', payload: '{}', state: 'delivered', createdAt: old },
    { hookId: hook.id, eventId: 0, guid: 'old-failed', event: 'push', eventType: 'push', payload: '{}', state: 'failed', createdAt: old },
    { hookId: hook.id, eventId: 0, guid: 'old-pending', event: 'push', eventType: 'push', payload: '{}', state: 'pending', createdAt: old, dueAt: new Date(Date.now() + 86_400_000) },
    { hookId: hook.id, eventId: 0, guid: 'new-done', event: 'push', eventType: 'push', payload: '{}', state: 'delivered' },
  ]).returning();
  assert.is(await app.services.hooks.cleanupDeliveries(), 2);
  const left = await db.select().from(hookDeliveries).where(eq(hookDeliveries.hookId, hook.id));
  assert.equal(left.map((d) => d.guid).sort(), ['new-done', 'old-pending']);
  assert.is(rows.length, 4);
});

test('the default allow list (external) refuses 127.0.0.1: the delivery is blocked, recorded and not retried', async () => {
  const strict = await startApp({ ...fastHooks, WEBHOOK_ALLOWED_HOST_LIST: '' }, { workers: true });
  try {
    const me = await actor(strict);
    const made = await userRepo(strict, me, { auto_init: true });
    const hook = await repoHook(strict, me.auth, pathOf(made), hookBody(rx.url, { events: ['create'] }));
    const before = rx.received.length;
    await strict.client(me.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: pathOf(made) }, body: { new_branch_name: 'blocked' } });
    const d = await eventually(async () => {
      const r = await strict.client(me.auth).GET('/repos/{owner}/{repo}/hooks/{id}/deliveries', { params: { path: { ...pathOf(made), id: hook.id } } });
      return r.data?.[0]?.state === 'blocked' && r.data[0];
    }, 'blocked');
    assert.is(d.attempts, 1);
    const detail = await strict.client(me.auth).GET('/repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}', { params: { path: { ...pathOf(made), id: hook.id, delivery_id: d.id } } });
    assert.match(detail.data!.attempts[0]!.error, /WEBHOOK_ALLOWED_HOST_LIST/);
    assert.is(rx.received.length, before, 'nothing reached the receiver');
  } finally {
    await strict.close();
  }
});

test.run();
