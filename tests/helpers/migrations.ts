// Migrations and mirrors (#39): a source anvil on 127.0.0.1 (a second app, another server and
// database) with a repository that has every part a migration copies, and a target allowed to reach it.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as assert from 'uvu/assert';
import { gitWorkspace } from './events.js';
import { startApp, type TestApp } from './harness.js';
import { uploadAsset } from './releases.js';
import { actor, fresh, userRepo, type Actor, type Repository } from './repos.js';

/** The target's settings: loopback is refused by default, so the tests allow it. */
export const migrationEnv = { MIGRATIONS_ALLOW_LOCALNETWORKS: 'true', MIRROR_MIN_INTERVAL: '0' };

export interface Source {
  app: TestApp;
  owner: Actor;
  /**
   * A public repository with a second branch, a tag, labels, a milestone, an issue with a comment and
   * reactions (on both), a pull request, a release with an asset and a wiki page.
   */
  full: Repository;
  /** A private repository with one commit. */
  secret: Repository;
  ws: ReturnType<typeof gitWorkspace>;
  cloneUrl(repo: Repository): string;
  close(): Promise<void>;
}

async function ok<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>, what: string): Promise<T> {
  const r = await p;
  assert.ok(r.response.status < 300, `${what}: ${r.response.status} ${JSON.stringify(r.error)}`);
  return r.data as T;
}

export async function startSource(): Promise<Source> {
  const app = await startApp();
  const owner = await actor(app);
  const [full, secret] = await Promise.all([
    userRepo(app, owner, { name: fresh('full'), auto_init: true, description: 'moved in' }),
    userRepo(app, owner, { name: fresh('secret'), auto_init: true, private: true }),
  ]);
  const c = app.client(owner.auth);
  const path = { owner: owner.username, repo: full.name };
  const ws = gitWorkspace(app);
  const work = await ws.clone(ws.remote(owner, path.owner, path.repo));
  await ws.must(['checkout', '-q', '-b', 'feature'], work);
  await ws.commit(work, 'f.txt', 'feature\n', 'feature work');
  await ws.must(['tag', 'v1'], work);
  await ws.must(['push', '-q', 'origin', 'feature', 'v1'], work);
  const label = await ok(c.POST('/repos/{owner}/{repo}/labels', { params: { path }, body: { name: 'bug', color: '#ee0701', description: 'broken' } }), 'label');
  const ms = await ok(c.POST('/repos/{owner}/{repo}/milestones', { params: { path }, body: { title: 'v1.0', description: 'first' } }), 'milestone');
  const issue = await ok(c.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'It breaks', body: 'when run', labels: [label!.id], milestone: ms!.id } }), 'issue');
  const comment = await ok(c.POST('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...path, index: issue!.number } }, body: { body: 'confirmed' } }), 'comment');
  // Reactions on the issue (by two accounts, one kind shared) and on its comment.
  const fan = await actor(app);
  const fanClient = app.client(fan.auth);
  await ok(c.POST('/repos/{owner}/{repo}/issues/{index}/reactions', { params: { path: { ...path, index: issue!.number } }, body: { content: 'heart' } }), 'reaction');
  await ok(fanClient.POST('/repos/{owner}/{repo}/issues/{index}/reactions', { params: { path: { ...path, index: issue!.number } }, body: { content: 'heart' } }), 'reaction 2');
  await ok(fanClient.POST('/repos/{owner}/{repo}/issues/{index}/reactions', { params: { path: { ...path, index: issue!.number } }, body: { content: '+1' } }), 'reaction 3');
  await ok(c.POST('/repos/{owner}/{repo}/issues/comments/{id}/reactions', { params: { path: { ...path, id: comment!.id! } }, body: { content: 'rocket' } }), 'comment reaction');
  await ok(c.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'Closed one', closed: true } } as never), 'issue 2');
  await ok(c.POST('/repos/{owner}/{repo}/pulls', { params: { path }, body: { title: 'Add feature', head: 'feature', base: full.default_branch, body: 'please' } }), 'pull');
  const release = await ok(c.POST('/repos/{owner}/{repo}/releases', { params: { path }, body: { tag_name: 'v1', name: 'One', body: 'notes' } }), 'release');
  await ok(uploadAsset(app, path, release!.id!, { filename: 'app.bin', content: 'binary asset \u0000\u0001 bytes'.repeat(500) }, owner), 'release asset');
  await ok(c.POST('/repos/{owner}/{repo}/wiki/new', { params: { path }, body: { title: 'Home', content_base64: Buffer.from('wiki home').toString('base64') } }), 'wiki');
  return {
    app, owner, full, secret, ws,
    cloneUrl: (repo) => `${app.url}/${repo.owner!.login}/${repo.name}.git`,
    async close() {
      ws.close();
      await app.close();
    },
  };
}

export interface SourceProxy {
  /** The proxied address of a repository of the source (git and `/api/v1` both pass through). */
  cloneUrl(repo: Repository): string;
  /** Each `/api/v1` request is held this long before it is passed on (a slow source). */
  delayMs: number;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of a source app: every `/api/v1` request waits `delayMs` (so a migration
 * runs long enough to be watched), and a request for which `fail` says so is answered 404 instead.
 */
export async function sourceProxy(source: Source, opts: { delayMs: number; fail?: (url: string) => boolean }): Promise<SourceProxy> {
  const target = new URL(source.app.url);
  const state = { delayMs: opts.delayMs };
  const server: Server = createServer((req, res) => {
    const pass = () => {
      if (opts.fail?.(req.url!)) {
        res.statusCode = 404;
        return void res.end();
      }
      const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      });
      up.on('error', () => req.socket.destroy());
      req.pipe(up);
    };
    if (req.url!.startsWith('/api/v1/')) setTimeout(pass, state.delayMs);
    else pass();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    cloneUrl: (repo) => `http://127.0.0.1:${port}/${repo.owner!.login}/${repo.name}.git`,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
