// userSearch: users the caller may see, with Gitea's {ok, data} wrapper.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { users } from '../../../src/db/schema/index.js';
import { startApp, type TestApp, type TestUser } from '../../helpers/harness.js';
import { createOrg } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let pub: TestUser, lim: TestUser, priv: TestUser, hidden: TestUser;
const tag = `zq${Date.now().toString(36)}`;
test.before(async () => {
  app = await startApp();
  pub = await app.user();
  lim = await app.user({ visibility: 'limited' });
  priv = await app.user({ visibility: 'private' });
  hidden = await app.user();
  const db = app.services.deps.db;
  for (const u of [pub, lim, priv]) await db.update(users).set({ fullName: `${tag} person` }).where(eq(users.id, u.id));
  await db.update(users).set({ email: `${tag}-mail@example.org`, keepEmailPrivate: true }).where(eq(users.id, hidden.id));
  await createOrg(app, pub, { full_name: `${tag} org` });
});
test.after(async () => {
  await app.close();
});

const search = (query: Record<string, string | number>, auth: string | null) => app.client(auth ?? undefined).GET('/users/search', { params: { query } });
async function found(query: Record<string, string | number>, auth: string | null): Promise<string[]> {
  const res = await search(query, auth);
  assert.is(res.response.status, 200);
  assertSpec('userSearch', res);
  assert.is(res.data!.ok, true);
  return res.data!.data.map((u) => u.login).sort();
}

test('200: anonymous sees public users, signed-in callers limited ones and themselves, administrators all; never an organization', async () => {
  assert.equal(await found({ q: tag }, null), [pub.username]);
  assert.equal(await found({ q: tag }, await app.token(hidden)), [pub.username, lim.username].sort());
  assert.equal(await found({ q: tag }, await app.token(priv)), [pub.username, lim.username, priv.username].sort());
  assert.equal(await found({ q: tag }, await app.token(app.admin)), [pub.username, lim.username, priv.username].sort());
});

test('200: q in the name (any case), never in a hidden e-mail; uid; pages with X-Total-Count', async () => {
  assert.equal(await found({ q: pub.username.toUpperCase() }, null), [pub.username]);
  assert.equal(await found({ q: `${tag}-mail` }, null), [], 'a hidden address is not searched');
  assert.equal(await found({ uid: lim.id }, await app.token(pub)), [lim.username]);
  assert.equal(await found({ uid: priv.id }, await app.token(pub)), []);
  const page = await search({ q: tag, limit: 1, page: 2 }, await app.token(app.admin));
  assert.is(page.data!.data.length, 1);
  assert.is(page.response.headers.get('x-total-count'), '3');
});

test('422: page, limit and uid must be integers', async () => {
  for (const q of ['uid=x', 'page=1.5', 'limit=ten']) {
    const res = await fetch(`${app.url}/api/v1/users/search?${q}`);
    assert.is(res.status, 422, q);
  }
});

test.run();
