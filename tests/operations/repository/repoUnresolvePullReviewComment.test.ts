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

type Fixture = Awaited<ReturnType<typeof pullFixture>>;
const unresolve = (f: Fixture, id: number, auth: string | undefined) => markConversation(app, f.repo, id, auth, false);
async function resolved(f: Fixture): Promise<{ id: number; reviewId: number }> {
  const c = await lineComment(app, f, r.reader.auth);
  assert.is((await markConversation(app, f.repo, c.id, r.owner.auth, true)).response.status, 204);
  return c;
}

test('204: the pull request\'s poster, the code\'s writers and the site admin open a resolved conversation again; again changes nothing', async () => {
  const f = await pullFixture(app, r);
  for (const who of [r.writer, r.owner, r.admin]) {
    const c = await resolved(f);
    assert.is(await resolverOf(app, f, c.reviewId, c.id, r.reader.auth), r.owner.username);
    const res = await unresolve(f, c.id, who.auth);
    assert.is(res.response.status, 204, who.username);
    assertSpec('repoUnresolvePullReviewComment', res);
    assert.is(await resolverOf(app, f, c.reviewId, c.id, r.reader.auth), null);
    assert.is((await unresolve(f, c.id, who.auth)).response.status, 204, 'already open');
  }
});

test('403 a reader; 401 anonymous; 404 outsiders and unknown ids; 423 archived', async () => {
  const f = await pullFixture(app, r, { priv: true });
  const c = await resolved(f);
  const reader = await unresolve(f, c.id, r.reader.auth);
  assert.is(reader.response.status, 403);
  assertSpec('repoUnresolvePullReviewComment', reader);
  assert.is((await unresolve(f, c.id, undefined)).response.status, 401);
  assert.is((await unresolve(f, c.id, r.outsider.auth)).response.status, 404);
  assert.is((await unresolve(f, c.id + 100_000, r.owner.auth)).response.status, 404);
  assert.is(await resolverOf(app, f, c.reviewId, c.id, r.owner.auth), r.owner.username, 'refusals change nothing');
  await setArchived(app, f.repo, r.owner);
  assert.is((await unresolve(f, c.id, r.owner.auth)).response.status, 423);
});

test.run();
