// Migrations as tasks (#39): while `POST /repos/migrate` runs (a slow source in front of a second app),
// the repository shows as being migrated — `GET /repos/{owner}/{repo}` answers the placeholder, its page
// names the task, Gitea's `GET /user/task/{id}` tells the progress — and nothing else reaches it; the
// task ends finished with the repository, or failed with its message and no repository left.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../helpers/hooks.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { migrationEnv, sourceProxy, startSource, type Source } from '../helpers/migrations.js';
import { actor, fresh, messageOf, type Actor } from '../helpers/repos.js';

let src: Source;
let app: TestApp;
let me: Actor;
let other: Actor;

test.before(async () => {
  [src, app] = await Promise.all([startSource(), startApp(migrationEnv)]);
  [me, other] = await Promise.all([actor(app), actor(app)]);
});
test.after(async () => {
  await Promise.all([src.close(), app.close()]);
});

type Body = { clone_addr: string; repo_name: string } & Record<string, unknown>;
const migrate = (auth: string | undefined, body: Body) => app.client(auth).POST('/repos/migrate', { body: body as never });
const getRepo = (name: string) => app.client(me.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: me.username, repo: name } } });

interface TaskJson { status: number; message: string; 'repo-id': number; 'repo-name': string; start: number; end: number }
async function task(id: number, auth: string | null = me.auth): Promise<{ status: number; json: TaskJson & { error?: string }; location: string | null }> {
  const res = await fetch(`${app.url}/user/task/${id}`, { headers: auth ? { Authorization: auth } : {}, redirect: 'manual' });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
  return { status: res.status, json, location: res.headers.get('location') };
}

/** The task id the page of a repository being migrated names. */
async function taskIdOnPage(name: string): Promise<number | undefined> {
  const res = await fetch(`${app.url}/${me.username}/${name}`, { headers: { Authorization: me.auth } });
  if (res.status !== 200) return undefined;
  const m = /data-migrating-task-id="(\d+)"/.exec(await res.text());
  return m ? Number(m[1]) : undefined;
}

// Release assets are fetched from the source's own address, which the proxy is not: no releases through it.
const everything = { service: 'gitea', issues: true, labels: true, milestones: true, pull_requests: true, wiki: true };

test('while a migration runs: the placeholder repository, its page, the task with Gitea\'s progress texts; then 201 and the task finished', async () => {
  const proxy = await sourceProxy(src, { delayMs: 250 });
  try {
    const name = fresh('slow');
    const started = Date.now();
    const pending = migrate(me.auth, { clone_addr: proxy.cloneUrl(src.full), repo_name: name, ...everything });
    const seen = await eventually(async () => {
      const r = await getRepo(name);
      return r.response.status === 200 ? r.data : undefined;
    }, 'the repository being migrated', 30_000);
    assert.is(seen!.full_name, `${me.username}/${name}`);
    assert.is(seen!.empty, true, 'nothing is in it yet');
    assert.is(seen!.original_url, proxy.cloneUrl(src.full));
    // Everything but the repository's JSON and page is 404 until the migration ends.
    const c = app.client(me.auth);
    const path = { owner: me.username, repo: name };
    assert.is((await c.GET('/repos/{owner}/{repo}/branches', { params: { path } })).response.status, 404);
    assert.is((await c.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'too early' } })).response.status, 404);
    assert.is((await c.DELETE('/repos/{owner}/{repo}', { params: { path } })).response.status, 404);
    assert.is((await fetch(`${app.url}/${me.username}/${name}.git/info/refs?service=git-upload-pack`, { headers: { Authorization: me.auth } })).status, 404);
    // The same name again, meanwhile: 409.
    assert.is((await migrate(me.auth, { clone_addr: src.cloneUrl(src.full), repo_name: name })).response.status, 409);
    const id = await eventually(() => taskIdOnPage(name), 'the page to name the task', 20_000);
    const running = await task(id!);
    assert.is(running.status, 200);
    assert.is(running.json.status, 1, JSON.stringify(running.json));
    assert.is(running.json['repo-name'], name);
    assert.is(running.json['repo-id'], seen!.id);
    assert.ok(running.json.start >= Math.floor(started / 1000) - 1, 'started after the request');
    assert.is(running.json.end, 0);
    assert.match(running.json.message, /^Migrating (Git Data|Labels|Milestones|Issues|Pull Requests|Releases)$/);
    // The progress moves on through the source's parts.
    await eventually(async () => (await task(id!)).json.message === 'Migrating Issues', 'the task to be migrating issues', 30_000);
    await eventually(async () => (await task(id!)).json.message === 'Migrating Pull Requests', 'the task to be migrating pull requests', 30_000);
    // Only its migrating user sees the task (Gitea's 404 body); a request without a user is sent to sign in.
    const theirs = await task(id!, other.auth);
    assert.is(theirs.status, 404);
    assert.equal(theirs.json, { error: `task \`${id}\` does not exist` });
    const anonymous = await task(id!, null);
    assert.is(anonymous.status, 303);
    assert.match(anonymous.location ?? '', /\/user\/login\?redirect_to=/);
    assert.is((await task(id! + 1000)).status, 404);

    const res = await pending;
    assert.is(res.response.status, 201, JSON.stringify(res.error));
    assert.is(res.data!.id, seen!.id, 'the placeholder became the repository');
    assert.is(res.data!.empty, false);
    assert.is(res.data!.open_issues_count, 1);
    const done = await task(id!);
    assert.is(done.json.status, 4);
    assert.is(done.json.message, '');
    assert.is(done.json['repo-id'], seen!.id);
    assert.ok(done.json.end >= done.json.start && done.json.end > 0);
    assert.is((await c.GET('/repos/{owner}/{repo}/branches', { params: { path } })).response.status, 200);
    const page = await fetch(`${app.url}/${me.username}/${name}`, { headers: { Authorization: me.auth } });
    assert.not.match(await page.text(), /data-migrating-task-id/);
  } finally {
    await proxy.close();
  }
});

test('a migration that fails part way: 422 with the reason, the task failed with that message, no repository, the name free again', async () => {
  const proxy = await sourceProxy(src, { delayMs: 150, fail: (url) => url.includes('/releases') });
  try {
    const name = fresh('fails');
    const pending = migrate(me.auth, { clone_addr: proxy.cloneUrl(src.full), repo_name: name, ...everything, releases: true });
    const id = await eventually(() => taskIdOnPage(name), 'the page to name the task', 30_000);
    const res = await pending;
    assert.is(res.response.status, 422);
    assert.match(messageOf(res.error), /the source server answered 404 for .*\/releases/);
    const failed = await task(id!);
    assert.is(failed.status, 200);
    assert.is(failed.json.status, 3);
    assert.is(failed.json.message, messageOf(res.error));
    assert.is(failed.json['repo-id'], 0, 'its repository is gone');
    assert.is(failed.json['repo-name'], name);
    assert.ok(failed.json.end > 0);
    assert.is((await getRepo(name)).response.status, 404, 'no half-made repository');
    const again = await migrate(me.auth, { clone_addr: src.cloneUrl(src.full), repo_name: name });
    assert.is(again.response.status, 201, JSON.stringify(again.error));
  } finally {
    await proxy.close();
  }
});

test('never a 500 for the waiting request: a task gone meanwhile (its doer deleted) is 404, a failure of another kind (failed by another process) is 422 with its message', async () => {
  const proxy = await sourceProxy(src, { delayMs: 250 });
  try {
    const gone = fresh('gone');
    const pending = migrate(me.auth, { clone_addr: proxy.cloneUrl(src.full), repo_name: gone, ...everything });
    const id = await eventually(() => taskIdOnPage(gone), 'the page to name the task', 30_000);
    // What deleting its doer does to the row (the foreign key cascades), from another process.
    await app.sqlFromElsewhere(`delete from migrate_tasks where id = ${id}`);
    const res = await pending;
    assert.is(res.response.status, 404, JSON.stringify(res.error));
    assert.is((await task(id!)).status, 404);

    const other = fresh('othermind');
    const second = migrate(me.auth, { clone_addr: proxy.cloneUrl(src.full), repo_name: other, ...everything });
    const id2 = await eventually(() => taskIdOnPage(other), 'the page to name the task', 30_000);
    // A process that took the task over (this one seemed dead) failed it with an internal failure.
    await app.sqlFromElsewhere(`update migrate_tasks set status = 3, failure = 'internal', message = 'the migration was interrupted elsewhere', holder = 'another', lease_until = null, ended_at = now() where id = ${id2}`);
    const res2 = await second;
    assert.is(res2.response.status, 422, JSON.stringify(res2.error));
    assert.is(messageOf(res2.error), 'the migration was interrupted elsewhere');
    // A kind this version does not know, as a newer process might write it.
    const third = fresh('newkind');
    const pending3 = migrate(me.auth, { clone_addr: proxy.cloneUrl(src.full), repo_name: third, ...everything });
    const id3 = await eventually(() => taskIdOnPage(third), 'the page to name the task', 30_000);
    await app.sqlFromElsewhere(`update migrate_tasks set status = 3, failure = 'SomethingNew', message = 'a newer kind', holder = 'another', lease_until = null, ended_at = now() where id = ${id3}`);
    const res3 = await pending3;
    assert.is(res3.response.status, 422, JSON.stringify(res3.error));
    assert.is(messageOf(res3.error), 'a newer kind');
  } finally {
    await proxy.close();
  }
});

test('a client that goes away does not stop its migration', async () => {
  const proxy = await sourceProxy(src, { delayMs: 200 });
  try {
    const name = fresh('left');
    const abort = new AbortController();
    const gone = fetch(`${app.url}/api/v1/repos/migrate`, {
      method: 'POST', signal: abort.signal, headers: { Authorization: me.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ clone_addr: proxy.cloneUrl(src.full), repo_name: name, ...everything }),
    }).catch(() => undefined);
    const id = await eventually(() => taskIdOnPage(name), 'the page to name the task', 30_000);
    abort.abort();
    await gone;
    const end = await eventually(async () => {
      const t = await task(id!);
      return t.json.status >= 3 ? t.json : undefined;
    }, 'the task to end', 60_000);
    assert.is(end!.status, 4, JSON.stringify(end));
    const r = await getRepo(name);
    assert.is(r.response.status, 200);
    assert.is(r.data!.empty, false);
    assert.is(r.data!.open_issues_count, 1);
  } finally {
    await proxy.close();
  }
});

test.run();
