// A repository with a known history for the read operations of commits and git data: dated commits on
// main, a branch with a slash, an annotated and a lightweight tag; and the visibility cases of a read.
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import type { TestApp } from './harness.js';
import { dirOf, disk, repoFor, roles, type Roles } from './gitFixtures.js';
import type { Repository } from './repos.js';
import { assertSpecAnswer } from './spec-check.js';

export interface HistoryWorld {
  r: Roles;
  repo: Repository;
  priv: Repository;
  empty: Repository;
  dir: string;
  api: string;
  /** main's commits, oldest first: the initial one, then three dated ones. */
  main: string[];
  /** The commit `feature/x` adds on top of main. */
  feature: string;
}

export async function historyWorld(app: TestApp): Promise<HistoryWorld> {
  const r = await roles(app);
  const [repo, priv, empty] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true }), repoFor(app, r, { auto_init: false })]);
  const dir = dirOf(app, repo);
  const first = (await disk.tip(dir, 'main'))!;
  const c2 = await disk.commit(dir, 'main', { 'src/a.txt': 'a1\n' }, { message: 'add a\n', date: new Date('2020-01-01T00:00:00Z') });
  const c3 = await disk.commit(dir, 'main', { 'src/b.txt': 'b\n', 'docs/x.md': 'x\n' }, { message: 'add b and x\n', date: new Date('2021-01-01T00:00:00Z') });
  const c4 = await disk.commit(dir, 'main', { 'src/a.txt': 'a2\nmore\n' }, { message: 'change a\n', date: new Date('2022-01-01T00:00:00Z') });
  const feature = await disk.commit(dir, 'feature/x', { 'feat.txt': 'f\n' }, { from: 'main', message: 'feature\n', date: new Date('2023-01-01T00:00:00Z') });
  await disk.run(dir, ['tag', '-a', 'v1', '-m', 'version 1', c3]);
  await disk.run(dir, ['update-ref', 'refs/tags/light', c2]);
  await disk.commit(dirOf(app, priv), 'main', { 'secret.txt': 's\n' });
  const api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  return { r, repo, priv, empty, dir, api, main: [first, c2, c3, c4], feature };
}

/** A read: public to anonymous callers; a private repository hidden (404) from outsiders and anonymous callers, open to its readers. */
export async function assertReadGuards(
  app: TestApp, w: HistoryWorld, op: OperationId, send: (repo: Repository, auth?: string) => Promise<{ status: number; body: unknown }>,
): Promise<void> {
  for (const [repo, auth, status, label] of [
    [w.repo, undefined, 200, 'anonymous, public'],
    [w.repo, w.r.outsider.auth, 200, 'outsider, public'],
    [w.priv, w.r.reader.auth, 200, 'reader, private'],
    [w.priv, w.r.admin.auth, 200, 'site admin, private'],
    [w.priv, w.r.outsider.auth, 404, 'outsider, private'],
    [w.priv, undefined, 404, 'anonymous, private'],
    [{ ...w.repo, full_name: `${w.r.owner.username}/nope` }, w.r.owner.auth, 404, 'unknown repository'],
  ] as const) {
    const res = await send(repo as Repository, auth);
    assert.is(res.status, status, `${label}: ${JSON.stringify(res.body)?.slice(0, 200)}`);
    if (status === 200) assertSpecAnswer(op, 200, res.body);
  }
  const bad = await send(w.repo, `token ${'0'.repeat(40)}`);
  assert.is(bad.status, 401, 'a wrong token');
}

/** A GET through plain fetch: the status, the parsed JSON body (undefined when empty), the headers. */
export async function jget(app: TestApp, path: string, auth?: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${app.url}/api/v1${path}`, { headers: auth ? { Authorization: auth } : {} });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
