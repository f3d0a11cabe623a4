import { existsSync, readdirSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { migrationEnv, startSource, type Source } from '../../helpers/migrations.js';
import { actor, fresh, git, messageOf, orgWorld, repoFolder, type Actor, type OrgWorld } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let src: Source;
let app: TestApp;
let me: Actor;
let w: OrgWorld;

test.before(async () => {
  [src, app] = await Promise.all([startSource(), startApp({ ...migrationEnv, MIGRATIONS_BLOCKED_DOMAINS: '*.blocked.example' })]);
  [me, w] = await Promise.all([actor(app), orgWorld(app)]);
});
test.after(async () => {
  await Promise.all([src.close(), app.close()]);
});

type Body = { clone_addr: string; repo_name: string } & Record<string, unknown>;
const migrate = (auth: string | undefined, body: Body) => app.client(auth).POST('/repos/migrate', { body: body as never });

const refsOf = (dir: string) => git(dir, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/tags']);

test('201: git only — every branch and tag, the default branch, original_url; nothing else', async () => {
  const name = fresh('git');
  const res = await migrate(me.auth, { clone_addr: src.cloneUrl(src.full), repo_name: name, description: 'copied' });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('repoMigrate', res);
  const r = res.data!;
  assert.is(r.full_name, `${me.username}/${name}`);
  assert.is(r.empty, false);
  assert.is(r.mirror, false);
  assert.is(r.description, 'copied');
  assert.is(r.default_branch, src.full.default_branch);
  assert.is(r.original_url, src.cloneUrl(src.full));
  assert.is(r.open_issues_count, 0);
  assert.is(refsOf(repoFolder(app, me.username, name)), refsOf(repoFolder(src.app, src.owner.username, src.full.name)));
  const branches = await app.client(me.auth).GET('/repos/{owner}/{repo}/branches', { params: { path: { owner: me.username, repo: name } } });
  assert.equal(branches.data!.map((b) => b.name).sort(), [src.full.default_branch!, 'feature'].sort());
});

test('201: service gitea — labels, milestones, issues with comments, pull requests, releases and the wiki, object by object', async () => {
  const name = fresh('all');
  const res = await migrate(me.auth, {
    clone_addr: src.cloneUrl(src.full), repo_name: name, service: 'gitea', auth_token: src.owner.auth.slice('token '.length),
    labels: true, milestones: true, issues: true, pull_requests: true, releases: true, wiki: true,
  });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  const to = app.client(me.auth);
  const from = src.app.client(src.owner.auth);
  const there = { owner: src.owner.username, repo: src.full.name };
  const here = { owner: me.username, repo: name };
  // Labels and milestones.
  const [l1, l2] = await Promise.all([from.GET('/repos/{owner}/{repo}/labels', { params: { path: there } }), to.GET('/repos/{owner}/{repo}/labels', { params: { path: here } })]);
  assert.equal(l2.data!.map((l) => [l.name, l.color, l.description]), l1.data!.map((l) => [l.name, l.color, l.description]));
  const [m1, m2] = await Promise.all([
    from.GET('/repos/{owner}/{repo}/milestones', { params: { path: there, query: { state: 'all' } } }),
    to.GET('/repos/{owner}/{repo}/milestones', { params: { path: here, query: { state: 'all' } } }),
  ]);
  assert.equal(m2.data!.map((m) => [m.title, m.description, m.state, m.open_issues, m.closed_issues]), m1.data!.map((m) => [m.title, m.description, m.state, m.open_issues, m.closed_issues]));
  // Issues and pull requests: numbers, titles, bodies, states, dates, labels, milestones; authors as original_author.
  const q = { state: 'all' as const };
  const [i1, i2] = await Promise.all([
    from.GET('/repos/{owner}/{repo}/issues', { params: { path: there, query: q } }),
    to.GET('/repos/{owner}/{repo}/issues', { params: { path: here, query: q } }),
  ]);
  assert.is(i2.data!.length, 3);
  const shape = (i: NonNullable<typeof i1.data>[number]) => [i.number, i.title, i.body, i.state, i.created_at, !!i.pull_request, i.labels!.map((l) => l.name), i.milestone?.title ?? null, i.comments];
  assert.equal(i2.data!.map(shape), i1.data!.map(shape));
  for (const i of i2.data!) {
    assert.is(i.original_author, src.owner.username);
    assert.is(i.original_author_id, src.owner.id);
    assert.is(i.user!.login, me.username);
  }
  const commented = i1.data!.find((i) => i.comments === 1)!;
  const [c1, c2] = await Promise.all([
    from.GET('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...there, index: commented.number } } }),
    to.GET('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...here, index: commented.number } } }),
  ]);
  assert.equal(c2.data!.map((c) => [c.body, c.created_at, c.original_author]), c1.data!.map((c) => [c.body, c.created_at, src.owner.username]));
  // Reactions, on the issue and on its comment: kinds, dates, and the source's account as Gitea's stand-in user.
  const reactionsOf = async (client: typeof to, path: typeof here, index: number, commentId: number) => {
    const [issue, comment] = await Promise.all([
      client.GET('/repos/{owner}/{repo}/issues/{index}/reactions', { params: { path: { ...path, index } } }),
      client.GET('/repos/{owner}/{repo}/issues/comments/{id}/reactions', { params: { path: { ...path, id: commentId } } }),
    ]);
    return { issue: issue.data!, comment: comment.data! };
  };
  const before = await reactionsOf(from, there, commented.number!, c1.data![0]!.id!);
  const after = await reactionsOf(to, here, commented.number!, c2.data![0]!.id!);
  assert.is(before.issue.length, 3);
  const standIn = (x: { user?: { login?: string } | null; content?: string; created_at?: string }) => [`${x.user!.login}(Gitea)`, x.content, x.created_at];
  assert.equal(after.issue.map((x) => [x.user!.login, x.content, x.created_at]), before.issue.map(standIn));
  assert.equal(after.comment.map((x) => [x.user!.login, x.content, x.created_at]), before.comment.map(standIn));
  assert.is(after.issue[0]!.user!.id, 0);
  // The migrating user's own reactions stay theirs: adding the kind a source account gave is a new reaction.
  const mine = await to.POST('/repos/{owner}/{repo}/issues/{index}/reactions', { params: { path: { ...here, index: commented.number! } }, body: { content: 'heart' } });
  assert.is(mine.response.status, 201);
  assert.is(mine.data!.user!.login, me.username);
  const [p1, p2] = await Promise.all([
    from.GET('/repos/{owner}/{repo}/pulls', { params: { path: there, query: q } }),
    to.GET('/repos/{owner}/{repo}/pulls', { params: { path: here, query: q } }),
  ]);
  assert.equal(p2.data!.map((p) => [p.number, p.title, p.head!.ref, p.head!.sha, p.base!.ref, p.state]), p1.data!.map((p) => [p.number, p.title, p.head!.ref, p.head!.sha, p.base!.ref, p.state]));
  const pr = p2.data![0]!;
  assert.is(git(repoFolder(app, me.username, name), ['rev-parse', `refs/pull/${pr.number}/head`]).trim(), pr.head!.sha);
  // A new issue takes the next number.
  const next = await to.POST('/repos/{owner}/{repo}/issues', { params: { path: here }, body: { title: 'after the move' } });
  assert.is(next.data!.number, Math.max(...i1.data!.map((i) => i.number)) + 1);
  // Releases.
  const [r1, r2] = await Promise.all([from.GET('/repos/{owner}/{repo}/releases', { params: { path: there } }), to.GET('/repos/{owner}/{repo}/releases', { params: { path: here } })]);
  assert.equal(r2.data!.map((r) => [r.tag_name, r.name, r.body, r.draft, r.prerelease]), r1.data!.map((r) => [r.tag_name, r.name, r.body, r.draft, r.prerelease]));
  // Release assets: names, sizes and the very bytes, under a new uuid of this server.
  const assetsOf = (r: typeof r1) => r.data!.flatMap((x) => x.assets!.map((a) => [x.tag_name, a.name, a.size]));
  assert.equal(assetsOf(r2), assetsOf(r1));
  const [a1, a2] = [r1.data![0]!.assets![0]!, r2.data![0]!.assets![0]!];
  assert.is.not(a2.uuid, a1.uuid);
  assert.ok(a2.browser_download_url!.startsWith(app.url));
  const [b1, b2] = await Promise.all([fetch(a1.browser_download_url!).then((r) => r.arrayBuffer()), fetch(a2.browser_download_url!).then((r) => r.arrayBuffer())]);
  assert.ok(Buffer.from(b2).equals(Buffer.from(b1)));
  // The wiki.
  const page = await to.GET('/repos/{owner}/{repo}/wiki/page/{pageName}', { params: { path: { ...here, pageName: 'Home' } } });
  assert.is(page.response.status, 200);
  assert.is(Buffer.from(page.data!.content_base64!, 'base64').toString(), 'wiki home');
});

test('a private source: 422 without credentials, 201 with a token (which is not kept for a plain migration)', async () => {
  const refused = await migrate(me.auth, { clone_addr: src.cloneUrl(src.secret), repo_name: fresh('p') });
  assert.is(refused.response.status, 422);
  assert.match(messageOf(refused.error), /cannot be read/);
  const res = await migrate(me.auth, { clone_addr: src.cloneUrl(src.secret), repo_name: fresh('p'), auth_token: src.owner.auth.slice('token '.length), private: true });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assert.is(res.data!.private, true);
  assert.is(res.data!.empty, false);
  assert.not.match(JSON.stringify(res.data), src.owner.auth.slice('token '.length));
});

test('422: refused addresses, services anvil cannot read, bad bodies; nothing made', async () => {
  for (const [body, pattern] of [
    [{ clone_addr: 'http://git.blocked.example/a/b.git' }, /disallowed hosts/],
    [{ clone_addr: 'ftp://127.0.0.1/a/b.git' }, /HTTP or HTTPS/],
    [{ clone_addr: 'file:///etc' }, /HTTP or HTTPS/],
    // User information that is no percent-encoding (was a URIError, 500).
    [{ clone_addr: 'http://%zz@127.0.0.1/a/b.git' }, /clone_addr: .*user name or password/],
    [{ clone_addr: 'http://me:%E0%A4%A@127.0.0.1/a/b.git' }, /clone_addr: .*user name or password/],
    // Gitea's MaxSize(2048), as for a new repository's description.
    [{ clone_addr: src.cloneUrl(src.full), description: 'd'.repeat(2049) }, /description/],
    [{ clone_addr: src.cloneUrl(src.full), service: 'github' }, /not supported/],
    [{ clone_addr: src.cloneUrl(src.full), mirror: true, mirror_interval: 'soon' }, /mirror_interval/],
    [{ clone_addr: `${src.app.url}/nobody/nothing.git` }, /cannot be read/],
  ] as const) {
    const name = fresh('bad');
    const res = await migrate(me.auth, { repo_name: name, ...body });
    assert.is(res.response.status, 422, JSON.stringify(body));
    assert.match(messageOf(res.error), pattern);
    assert.is((await app.client(me.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: me.username, repo: name } } })).response.status, 404);
  }
  const noName = await migrate(me.auth, { clone_addr: src.cloneUrl(src.full), repo_name: 'bad name!' });
  assert.is(noName.response.status, 422);
});

test('a source that dies part way: 422 with the reason, no repository and no folder left', async () => {
  // A proxy to the source that serves git and the repository but breaks every issue request.
  const target = new URL(src.app.url);
  const proxy: Server = createServer((req, res) => {
    if (req.url!.includes('/issues')) return void req.socket.destroy();
    const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  try {
    const port = (proxy.address() as AddressInfo).port;
    const name = fresh('dies');
    const res = await migrate(me.auth, {
      clone_addr: `http://127.0.0.1:${port}/${src.owner.username}/${src.full.name}.git`, repo_name: name, service: 'gitea', issues: true, labels: true,
    });
    assert.is(res.response.status, 422);
    assert.match(messageOf(res.error), /source server could not be read/);
    assert.is((await app.client(me.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: me.username, repo: name } } })).response.status, 404);
    assert.not.ok(existsSync(repoFolder(app, me.username, name)));
    const tmp = join(app.config.dataDir, 'tmp');
    assert.is(existsSync(tmp) ? readdirSync(tmp).filter((f) => f.includes(name.toLowerCase())).length : 0, 0);
  } finally {
    proxy.closeAllConnections();
    await new Promise<void>((r) => proxy.close(() => r()));
  }
});

test('owners: an organization the caller may create in (201), one it may not (403), another user (403; an admin may), 409 for a taken name, 401 anonymous', async () => {
  const addr = src.cloneUrl(src.full);
  const inOrg = await migrate(w.creator.auth, { clone_addr: addr, repo_name: fresh('o'), repo_owner: w.org.name });
  assert.is(inOrg.response.status, 201, JSON.stringify(inOrg.error));
  assert.is(inOrg.data!.owner!.login, w.org.name);
  assert.is(inOrg.data!.permissions!.admin, true);
  const member = await migrate(w.member.auth, { clone_addr: addr, repo_name: fresh('o'), repo_owner: w.org.name });
  assert.is(member.response.status, 403);
  const other = await migrate(w.outsider.auth, { clone_addr: addr, repo_name: fresh('o'), repo_owner: me.username });
  assert.is(other.response.status, 403);
  const admin = await actor(app, app.admin);
  const byAdmin = await migrate(admin.auth, { clone_addr: addr, repo_name: fresh('o'), repo_owner: me.username });
  assert.is(byAdmin.response.status, 201);
  const name = fresh('twice');
  assert.is((await migrate(me.auth, { clone_addr: addr, repo_name: name })).response.status, 201);
  const again = await migrate(me.auth, { clone_addr: addr, repo_name: name });
  assert.is(again.response.status, 409);
  assert.is((await migrate(undefined, { clone_addr: addr, repo_name: fresh('a') })).response.status, 401);
});

test.run();
