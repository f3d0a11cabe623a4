import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { lineComment, markConversation, pullFixture, resolverOf } from '../../helpers/pulls.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
});
test.after(async () => {
  await app.close();
});

const resolve = (f: Awaited<ReturnType<typeof pullFixture>>, id: number, auth: string | undefined) => markConversation(app, f.repo, id, auth, true);

test('204: the pull request\'s poster, the code\'s writers and the site admin resolve a line comment; resolver shows who; again changes nothing', async () => {
  const f = await pullFixture(app, r); // the writer's pull request
  for (const who of [r.writer, r.owner, r.admin]) {
    const c = await lineComment(app, f, r.reader.auth);
    assert.is(await resolverOf(app, f, c.reviewId, c.id, r.reader.auth), null, 'open at first');
    const res = await resolve(f, c.id, who.auth);
    assert.is(res.response.status, 204, who.username);
    assertSpec('repoResolvePullReviewComment', res);
    assert.is(await res.response.text(), '');
    assert.is(await resolverOf(app, f, c.reviewId, c.id, r.reader.auth), who.username);
    assert.is((await resolve(f, c.id, r.owner.auth)).response.status, 204, 'already resolved');
    assert.is(await resolverOf(app, f, c.reviewId, c.id, r.reader.auth), who.username, 'the first resolver stays');
  }
});

test('403 a reader who did not open the pull request; 401 anonymous; 404 outsiders, unknown ids, another repository\'s comment, someone else\'s pending review; 423 archived', async () => {
  const f = await pullFixture(app, r, { priv: true });
  const c = await lineComment(app, f, r.reader.auth);
  const reader = await resolve(f, c.id, r.reader.auth);
  assert.is(reader.response.status, 403, 'the commenter alone may not (Gitea: poster or writers)');
  assertSpec('repoResolvePullReviewComment', reader);
  assert.is((await resolve(f, c.id, undefined)).response.status, 401);
  assert.is((await resolve(f, c.id, r.outsider.auth)).response.status, 404);
  const unknown = await resolve(f, c.id + 100_000, r.owner.auth);
  assert.is(unknown.response.status, 404);
  assertSpec('repoResolvePullReviewComment', unknown);
  const other = await pullFixture(app, r);
  assert.is((await markConversation(app, other.repo, c.id, r.owner.auth, true)).response.status, 404, 'the id of another repository\'s comment');
  const draft = await lineComment(app, f, r.admin.auth, { pending: true });
  assert.is((await resolve(f, draft.id, r.owner.auth)).response.status, 404, 'a pending review\'s comment is its author\'s alone');
  assert.is(await resolverOf(app, f, c.reviewId, c.id, r.owner.auth), null, 'refusals change nothing');
  await setArchived(app, f.repo, r.owner);
  assert.is((await resolve(f, c.id, r.owner.auth)).response.status, 423);
});

test.run();
