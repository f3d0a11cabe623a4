import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, createOrg, linksOf, type Actor, type Organization } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';

let app: TestApp;
let owner: Actor;
let restricted: Actor;
let admin: Actor;
let orgs: Record<'public' | 'limited' | 'private', Organization>;

test.before(async () => {
  app = await startApp();
  [owner, restricted, admin] = await Promise.all([actor(app), actor(app, { restricted: true }), adminActor(app)]);
  orgs = {
    public: await createOrg(app, owner, { username: 'a-public' }),
    limited: await createOrg(app, owner, { username: 'b-limited', visibility: 'limited' }),
    private: await createOrg(app, owner, { username: 'c-private', visibility: 'private' }),
  };
});
test.after(async () => {
  await app.close();
});

const list = (auth?: string, query: { page?: number; limit?: number } = {}) => app.client(auth).GET('/orgs', { params: { query } });
const names = (res: { data?: Array<{ name: string }> }) => res.data!.map((o) => o.name);

test('200: public ones to anonymous and restricted callers, limited ones too when signed in, all to admins; by name', async () => {
  const anon = await list();
  await expectStatus('orgGetAll', anon, 200, 'anonymous');
  assert.equal(names(anon), ['a-public']);
  assert.is(anon.response.headers.get('x-total-count'), '1');
  assert.equal(names(await list(restricted.auth)), ['a-public'], 'restricted');
  assert.equal(names(await list(owner.auth)), ['a-public', 'b-limited'], 'a member of the private one does not find it here');
  assert.equal(names(await list(admin.auth)), ['a-public', 'b-limited', 'c-private'], 'admin');
  assert.ok(orgs.private.id > 0);
});

test('200: pages', async () => {
  const first = await list(admin.auth, { limit: 2 });
  assert.equal(names(first), ['a-public', 'b-limited']);
  assert.is(first.response.headers.get('x-total-count'), '3');
  assert.equal(linksOf(first.response.headers.get('link')).next, { page: 2, limit: 2 });
  assert.equal(names(await list(admin.auth, { limit: 2, page: 2 })), ['c-private']);
});

test('401 wrong credentials; 403 token without the organization scope', async () => {
  await expect401('orgGetAll', (auth) => list(auth));
  await expectStatus('orgGetAll', await list(await app.token(owner, ['read:user'])), 403, 'scope');
});

test.run();
