import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eq } from 'drizzle-orm';
import { userBlocks } from '../../../src/db/schema/index.js';
import { allRefused, allTies, blockUser, noTies, refusals, repoCounts, ties, tiesLeft } from '../../helpers/blocks.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, createOrg, messageOf, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';
import { addCollaborator, pathOf, userRepo } from '../../helpers/repos.js';

let app: TestApp;
let a: Actor;
let b: Actor;

test.before(async () => {
  app = await startApp();
  [a, b] = await Promise.all([actor(app), actor(app)]);
});
test.after(async () => {
  await app.close();
});

test('204: the block ends every tie between the two, at once, with the counters', async () => {
  const t = await ties(app);
  assert.equal(await tiesLeft(app, t), allTies);
  await expectStatus('userBlockUser', await blockUser(app, t.a, t.b.username, 'spam'), 204, 'block');
  assert.equal(await tiesLeft(app, t), noTies);
  assert.equal(await repoCounts(app, t.a, t.aRepo), [0, 1], 'a still watches its own repository');
  assert.equal(await repoCounts(app, t.b, t.bRepo), [0, 1]);
  const [row] = await app.services.deps.db.select().from(userBlocks).where(eq(userBlocks.blockerId, t.a.id));
  assert.is(row?.blockeeId, t.b.id);
  assert.is(row?.note, 'spam');
});

test('403 afterwards: the blocked user cannot follow, star, watch, open issues, comment or collaborate', async () => {
  const [x, y] = await Promise.all([actor(app), actor(app)]);
  const { userRepo } = await import('../../helpers/repos.js');
  const repo = await userRepo(app, x);
  await expectStatus('userBlockUser', await blockUser(app, x, y.username), 204, 'block');
  assert.equal(await refusals(app, y, repo, x), allRefused);
});

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
  assert.is((await blockUser(app, blocker, doer.username)).response.status, 204);

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

test('400: oneself, an organization, a user already blocked', async () => {
  let res = await blockUser(app, a, a.username);
  await expectStatus('userBlockUser', res, 400, 'oneself');
  assert.is(messageOf(res.error), 'cannot block the user');
  const org = await createOrg(app, b);
  res = await blockUser(app, a, org.name);
  await expectStatus('userBlockUser', res, 400, 'an organization');
  assert.is(messageOf(res.error), 'cannot block an organization');
  await expectStatus('userBlockUser', await blockUser(app, a, b.username), 204, 'first');
  res = await blockUser(app, a, b.username);
  await expectStatus('userBlockUser', res, 400, 'again');
  assert.is(messageOf(res.error), 'cannot block the user');
});

test('404: an unknown or invisible user; 422: a note over 255 characters', async () => {
  const hidden = await actor(app, { visibility: 'private' });
  await expectStatus('userBlockUser', await blockUser(app, a, 'nobody-here'), 404, 'unknown');
  await expectStatus('userBlockUser', await blockUser(app, a, hidden.username), 404, 'private');
  const c = await actor(app);
  await expectStatus('userBlockUser', await blockUser(app, a, c.username, 'n'.repeat(256)), 422, 'long note');
});

test('401 anonymous and wrong credentials; 403 token without write:user', async () => {
  const c = await actor(app);
  await expectStatus('userBlockUser', await app.client().PUT('/user/blocks/{username}', { params: { path: { username: c.username } } }), 401, 'anonymous');
  await expect401('userBlockUser', (auth) => app.client(auth).PUT('/user/blocks/{username}', { params: { path: { username: c.username } } }));
  const readOnly = await app.token(a, ['read:user']);
  await expectStatus('userBlockUser', await app.client(readOnly).PUT('/user/blocks/{username}', { params: { path: { username: c.username } } }), 403, 'read scope');
});

test.run();
