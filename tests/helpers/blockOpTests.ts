// The per-operation tests of blocking and unblocking. Blocking and unblocking exist for two blockers (the
// caller, an organization) with the same statuses and mirrored effects, so each blocker's cases are written
// once here, called with the kind; each operation's test file names its kind.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eq } from 'drizzle-orm';
import { userBlocks } from '../../src/db/schema/index.js';
import { allRefused, allTies, block, noTies, noneRefused, orgBlock, refusals, repoCounts, ties, tiesLeft } from './blocks.js';
import { startApp, type TestApp } from './harness.js';
import { actor, adminActor, createOrg, createOrgRepo, messageOf, orgWorld, type Actor, type OrgWorld } from './orgs.js';
import { expect401, expectStatus } from './people.js';
import { addCollaborator, pathOf, userRepo } from './repos.js';

export type BlockKind = 'block' | 'unblock';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { data?: any; error?: any; response: Response };

/** `userBlockUser` / `userUnblockUser`: PUT or DELETE `/user/blocks/{username}`. */
export function userBlockOpTests(kind: BlockKind): void {
  const op = kind === 'block' ? 'userBlockUser' : 'userUnblockUser';
  const refusedMessage = kind === 'block' ? 'cannot block the user' : 'cannot unblock the user';
  let app: TestApp;
  let a: Actor;
  test.before(async () => {
    app = await startApp();
    a = await actor(app);
  });
  test.after(async () => {
    await app?.close();
  });

  const call = (by: string | undefined, username: string, note?: string): Promise<Answer> => {
    const init = { params: { path: { username }, query: note === undefined ? {} : { note } } };
    return kind === 'block' ? app.client(by).PUT('/user/blocks/{username}', init) : app.client(by).DELETE('/user/blocks/{username}', { params: { path: { username } } });
  };
  /** What the operation acts on: for an unblock, a user blocked first. */
  const target = async (by: Actor, who: Actor) => {
    if (kind === 'unblock') await block(app, by, who.username);
  };

  if (kind === 'block') {
    test('204: the block ends every tie between the two, at once, with the counters', async () => {
      const t = await ties(app);
      assert.equal(await tiesLeft(app, t), allTies);
      await expectStatus(op, await call(t.a.auth, t.b.username, 'spam'), 204, 'block');
      assert.equal(await tiesLeft(app, t), noTies);
      assert.equal(await repoCounts(app, t.a, t.aRepo), [0, 1], 'a still watches its own repository');
      assert.equal(await repoCounts(app, t.b, t.bRepo), [0, 1]);
      const [row] = await app.services.deps.db.select().from(userBlocks).where(eq(userBlocks.blockerId, t.a.id));
      assert.is(row?.blockeeId, t.b.id);
      assert.is(row?.note, 'spam');
    });
  }

  test(kind === 'block'
    ? '204, then 403: the blocked user cannot follow, star, watch, open issues, comment or collaborate'
    : '204: the blocked user may follow, star, watch, open issues, comment and collaborate again', async () => {
    const [x, y] = await Promise.all([actor(app), actor(app)]);
    const repo = await userRepo(app, x);
    await target(x, y);
    await expectStatus(op, await call(x.auth, y.username), 204, kind);
    assert.equal(await refusals(app, y, repo, x), kind === 'block' ? allRefused : noneRefused);
  });

  if (kind === 'block') {
    test('403: no one is assigned to an issue or pull request by someone they blocked; one assigned before stays', async () => {
      const [host, doer, blocker] = await Promise.all([actor(app), actor(app), actor(app)]);
      const repo = await userRepo(app, host, { auto_init: true });
      await addCollaborator(app, repo, doer, 'write');
      await addCollaborator(app, repo, blocker, 'write');
      const c = app.client(doer.auth);
      const path = pathOf(repo);
      const early = await c.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'assigned before', assignees: [blocker.username] } });
      assert.is(early.response.status, 201);
      const plain = await c.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'plain' } });
      assert.is((await call(blocker.auth, doer.username)).response.status, 204);

      const created = await c.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'refused', assignees: [blocker.username] } });
      await expectStatus('issueCreateIssue', created, 403, 'create with the blocker assigned');
      assert.is(messageOf(created.error), 'user is blocked');
      const edited = await c.PATCH('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...path, index: plain.data!.number } }, body: { assignees: [blocker.username] } });
      await expectStatus('issueEditIssue', edited, 403, 'edit adding the blocker');
      const file = await c.POST('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...path, filepath: 'topic.txt' } }, body: { content: 'dG9waWM=', new_branch: 'topic' } });
      assert.is(file.response.status, 201);
      const pull = await c.POST('/repos/{owner}/{repo}/pulls', { params: { path }, body: { title: 'refused', head: 'topic', base: 'main', assignees: [blocker.username] } });
      await expectStatus('repoCreatePullRequest', pull, 403, 'pull request with the blocker assigned');
      assert.is(messageOf(pull.error), 'user is blocked');
      // Already assigned: an edit that keeps them is no new assignment.
      const kept = await c.PATCH('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...path, index: early.data!.number } }, body: { assignees: [blocker.username], title: 'renamed' } });
      assert.is(kept.response.status, 201);
      // Others may still assign them.
      const byHost = await app.client(host.auth).POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'by the owner', assignees: [blocker.username] } });
      assert.is(byHost.response.status, 201);
    });
  }

  test(`400: oneself, an organization, a user ${kind === 'block' ? 'already blocked' : 'not blocked (any more)'}`, async () => {
    const [b, orgOwner] = await Promise.all([actor(app), actor(app)]);
    let res = await call(a.auth, a.username);
    await expectStatus(op, res, 400, 'oneself');
    assert.is(messageOf(res.error), refusedMessage);
    const org = await createOrg(app, orgOwner);
    res = await call(a.auth, org.name);
    await expectStatus(op, res, 400, 'an organization');
    assert.is(messageOf(res.error), 'cannot block an organization');
    if (kind === 'unblock') {
      res = await call(a.auth, b.username);
      await expectStatus(op, res, 400, 'never blocked');
      assert.is(messageOf(res.error), refusedMessage);
    }
    await target(a, b);
    await expectStatus(op, await call(a.auth, b.username), 204, 'first');
    res = await call(a.auth, b.username);
    await expectStatus(op, res, 400, 'again');
    assert.is(messageOf(res.error), refusedMessage);
  });

  test(`404: an unknown or invisible user${kind === 'block' ? '; 422: a note over 255 characters' : ''}`, async () => {
    const hidden = await actor(app, { visibility: 'private' });
    await expectStatus(op, await call(a.auth, 'nobody-here'), 404, 'unknown');
    await expectStatus(op, await call(a.auth, hidden.username), 404, 'private');
    if (kind === 'block') {
      const c = await actor(app);
      await expectStatus(op, await call(a.auth, c.username, 'n'.repeat(256)), 422, 'long note');
    }
  });

  test('401 anonymous and wrong credentials; 403 token without write:user', async () => {
    const c = await actor(app);
    await target(a, c);
    await expectStatus(op, await call(undefined, c.username), 401, 'anonymous');
    await expect401(op, (auth) => call(auth, c.username));
    await expectStatus(op, await call(await app.token(a, ['read:user']), c.username), 403, 'read scope');
  });
  test.run();
}

/** `organizationBlockUser` / `organizationUnblockUser`: PUT or DELETE `/orgs/{org}/blocks/{username}`. */
export function orgBlockOpTests(kind: BlockKind): void {
  const op = kind === 'block' ? 'organizationBlockUser' : 'organizationUnblockUser';
  let app: TestApp;
  let w: OrgWorld;
  let hidden: OrgWorld;
  test.before(async () => {
    app = await startApp();
    w = await orgWorld(app);
    hidden = await orgWorld(app, 'private', w);
  });
  test.after(async () => {
    await app?.close();
  });

  const call = (org: string, username: string, auth?: string): Promise<Answer> => {
    const init = { params: { path: { org, username } } };
    return kind === 'block' ? app.client(auth).PUT('/orgs/{org}/blocks/{username}', init) : app.client(auth).DELETE('/orgs/{org}/blocks/{username}', init);
  };
  /** A user the operation acts on in `w`'s organization: for an unblock, blocked first. */
  const target = async (): Promise<Actor> => {
    const x = await actor(app);
    if (kind === 'unblock') await orgBlock(app, w.owner, w.org.name, x.username);
    return x;
  };

  test(kind === 'block'
    ? '204 for an owner and a site administrator: the blocked user is refused around the organization, and may not join it'
    : '204 for an owner and a site administrator: the user is no longer refused around the organization', async () => {
    const x = await target();
    const repo = await createOrgRepo(app, w.owner, w.org.name);
    await expectStatus(op, await call(w.org.name, x.username, w.owner.auth), 204, 'owner');
    assert.equal(await refusals(app, x, repo, w.owner), kind === 'block' ? allRefused : noneRefused);
    const join = await app.client(w.owner.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: w.readers.id, username: x.username } } });
    if (kind === 'block') {
      assert.is(join.response.status, 403);
      assert.is(messageOf(join.error), 'user is blocked');
    } else {
      assert.is(join.response.status, 204);
    }
    const y = await target();
    await expectStatus(op, await call(w.org.name, y.username, (await adminActor(app)).auth), 204, 'site administrator');
  });

  test(`400: a user ${kind === 'block' ? 'already blocked, a member of the organization' : 'not blocked (any more)'}, the organization itself`, async () => {
    if (kind === 'block') {
      const res = await call(w.org.name, w.member.username, w.owner.auth);
      await expectStatus(op, res, 400, 'member');
      assert.is(messageOf(res.error), 'cannot block the user');
    } else {
      const res = await call(w.org.name, (await actor(app)).username, w.owner.auth);
      await expectStatus(op, res, 400, 'never blocked');
      assert.is(messageOf(res.error), 'cannot unblock the user');
    }
    const res = await call(w.org.name, w.org.name, w.owner.auth);
    await expectStatus(op, res, 400, 'the organization');
    assert.is(messageOf(res.error), 'cannot block an organization');
    const z = await target();
    await expectStatus(op, await call(w.org.name, z.username, w.owner.auth), 204, 'first');
    await expectStatus(op, await call(w.org.name, z.username, w.owner.auth), 400, 'again');
  });

  test('403: a member who is not an owner, an outsider; 404: an invisible organization, an unknown user or organization', async () => {
    const z = await target();
    const res = await call(w.org.name, z.username, w.member.auth);
    await expectStatus(op, res, 403, 'member');
    assert.is(messageOf(res.error), 'Must be an organization owner');
    await expectStatus(op, await call(w.org.name, z.username, w.outsider.auth), 403, 'outsider of a public org');
    await expectStatus(op, await call(hidden.org.name, z.username, w.outsider.auth), 404, 'private org');
    await expectStatus(op, await call(w.org.name, 'nobody-here', w.owner.auth), 404, 'unknown user');
    await expectStatus(op, await call('no-such-org', z.username, w.owner.auth), 404, 'unknown org');
  });

  test('401 anonymous and wrong credentials; 403 token without write:organization', async () => {
    const z = await target();
    await expectStatus(op, await call(w.org.name, z.username), 401, 'anonymous');
    await expect401(op, (auth) => call(w.org.name, z.username, auth));
    await expectStatus(op, await call(w.org.name, z.username, await app.token(w.owner, ['read:organization'])), 403, 'read scope');
  });
  test.run();
}
