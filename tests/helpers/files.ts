// Shared cases of the contents writes (create, update, delete, change files): the callers who may not
// write, and what a write must leave in git.
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import type { TestApp } from './harness.js';
import { dirOf, disk, repoFor, setArchived, wrongScope, type Roles } from './gitFixtures.js';
import { swaggerOf, type Repository } from './repos.js';
import { assertSpecAnswer } from './spec-check.js';

export const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

/** One write to `repo` as `authorization`: its status and parsed body. */
export type Send = (repo: Repository, authorization?: string) => Promise<{ status: number; body: unknown }>;

/** The answer of a typed-client call, as Send wants it. */
export const answer = (res: { response: Response; data?: unknown; error?: unknown }) => ({ status: res.response.status, body: res.data ?? res.error });

/**
 * 401 anonymous and bad token; 403 reader, outsider, read-only token; 404 private repository for an
 * outsider, unknown repository; 423 archived — and the branch never moved.
 */
export async function assertWriteGuards(app: TestApp, r: Roles, op: OperationId, repo: Repository, priv: Repository, send: Send): Promise<void> {
  const dir = dirOf(app, repo);
  const before = await disk.tip(dir, 'main');
  const expect = async (target: Repository, auth: string | undefined, status: number, label: string, message?: string) => {
    const res = await send(target, auth);
    assert.is(res.status, status, `${label}: ${JSON.stringify(res.body)}`);
    if (status !== 404) assertSpecAnswer(op, status, res.body);
    if (message) assert.equal(res.body, { message, url: swaggerOf(app) }, label);
  };
  await expect(repo, undefined, 401, 'anonymous');
  await expect(repo, `token ${'0'.repeat(40)}`, 401, 'bad token');
  await expect(repo, r.reader.auth, 403, 'reader', 'user should have a permission to write to a repo');
  await expect(repo, r.outsider.auth, 403, 'outsider of a public repository');
  await expect(repo, await wrongScope(app, r.owner, true), 403, 'read-only token');
  await expect(priv, r.outsider.auth, 404, 'outsider of a private repository');
  await expect({ ...repo, full_name: `${r.owner.username}/nope` } as Repository, r.owner.auth, 404, 'unknown repository');
  assert.is(await disk.tip(dir, 'main'), before, 'nothing committed');
  const archived = await repoFor(app, r);
  await setArchived(app, archived, r.owner);
  for (const who of [r.writer, r.admin]) await expect(archived, who.auth, 423, `archived, ${who.username}`, 'repo is not allowed to edit');
}

/** The commit is the tip of `branch` with `parent` as its only parent, and the repository is sound. */
export async function assertCommitted(dir: string, branch: string, sha: string, parent: string | undefined): Promise<void> {
  assert.is(await disk.tip(dir, branch), sha, `the commit is the tip of ${branch}`);
  const parents = (await disk.run(dir, ['rev-list', '--parents', '-n', '1', sha])).trim().split(' ').slice(1);
  assert.equal(parents, parent ? [parent] : []);
  assert.is((await disk.run(dir, ['fsck', '--strict', '--no-progress'])).trim(), '', 'git fsck is clean');
}
