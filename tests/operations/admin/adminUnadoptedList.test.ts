// GET /admin/unadopted: folders `<owner>/<name>.git` no repository row owns, as "owner/name", for site admins.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, createOrg, createOrgRepo, fresh, type Actor } from '../../helpers/orgs.js';
import { expect401, expectFirstPageOfTwo, expectList, expectStatus } from '../../helpers/people.js';
import { listUnadopted, makeFolder } from '../../helpers/unadopted.js';

let app: TestApp;
let admin: Actor;
let owner: Actor;
test.before(async () => {
  app = await startApp();
  admin = await adminActor(app);
  owner = await actor(app);
});
test.after(async () => {
  await app?.close();
});

const names = (res: { data?: unknown }) => res.data as string[];

test('200: only folders without a row, of existing accounts, with usable lower-case names, in folder order', async () => {
  const o = owner.username.toLowerCase();
  makeFolder(app, o, 'zeta', { branches: ['main'] });
  makeFolder(app, o, 'alpha');
  // A repository made through the API has a folder and a row: not listed.
  const made = await app.client(owner.auth).POST('/user/repos', { body: { name: 'made' } });
  assert.is(made.response.status, 201);
  // Not repositories: a wiki folder, a folder without .git, a file, a name with upper case.
  makeFolder(app, o, 'alpha.wiki');
  mkdirSync(join(app.config.dataDir, 'repositories', o, 'plain'), { recursive: true });
  mkdirSync(join(app.config.dataDir, 'repositories', o, 'Upper.git'), { recursive: true });
  // A folder of an organization counts; one of an account that does not exist does not.
  const org = await createOrg(app, owner);
  makeFolder(app, org.name, 'lost');
  await createOrgRepo(app, owner, org.name, { name: 'kept' });
  makeFolder(app, 'no-such-account', 'ghost');
  expectList<string>('adminUnadoptedList', await listUnadopted(app, admin.auth, { pattern: o }), (x) => x, [`${o}/alpha`, `${o}/zeta`], 'owner');
  expectList<string>('adminUnadoptedList', await listUnadopted(app, admin.auth, { pattern: org.name.toLowerCase() }), (x) => x, [`${org.name.toLowerCase()}/lost`], 'org');
  const all = await listUnadopted(app, admin.auth);
  await expectStatus('adminUnadoptedList', all, 200, 'all');
  assert.ok(names(all).includes(`${o}/alpha`) && !names(all).some((n) => n.startsWith('no-such-account/')), names(all).join());
  assert.is(all.response.headers.get('x-total-count'), String(names(all).length));
});

test('200: pattern globs the owner, or owner/name; query is taken as pattern (Gitea reads it); invalid globs match all', async () => {
  const u = await actor(app);
  const o = u.username.toLowerCase();
  for (const n of ['app-one', 'app-two', 'lib', 'bpp']) makeFolder(app, o, n);
  const list = async (q: Parameters<typeof listUnadopted>[2], expected: string[], label: string) =>
    expectList<string>('adminUnadoptedList', await listUnadopted(app, admin.auth, q), (x) => x, expected.map((n) => `${o}/${n}`), label);
  await list({ pattern: `${o}/app-*` }, ['app-one', 'app-two'], 'star');
  await list({ pattern: `${o}/?pp*` }, ['app-one', 'app-two', 'bpp'], 'question mark');
  await list({ pattern: `${o}/{lib,bpp}` }, ['bpp', 'lib'], 'alternatives');
  await list({ pattern: `${o}/[ab]pp` }, ['bpp'], 'class');
  await list({ pattern: `${o.slice(0, 3)}*${o.slice(3)}/lib` }, ['lib'], 'owner glob');
  await list({ query: `${o}/lib` }, ['lib'], 'query');
  await list({ pattern: `${o}/[lib` }, ['app-one', 'app-two', 'bpp', 'lib'], 'invalid');
  expectList<string>('adminUnadoptedList', await listUnadopted(app, admin.auth, { pattern: `${o}/nothing*` }), (x) => x, [], 'no match');
  expectList<string>('adminUnadoptedList', await listUnadopted(app, admin.auth, { pattern: fresh('nobody') }), (x) => x, [], 'no owner');
});

test('200: pages of limit, X-Total-Count the number of matches', async () => {
  const u = await actor(app);
  const o = u.username.toLowerCase();
  for (const n of ['a1', 'a2', 'a3', 'a4', 'a5']) makeFolder(app, o, n);
  const first = await listUnadopted(app, admin.auth, { pattern: o, limit: 2 });
  expectFirstPageOfTwo(first, 5);
  assert.equal(names(first), [`${o}/a1`, `${o}/a2`]);
  const last = await listUnadopted(app, admin.auth, { pattern: o, limit: 2, page: 3 });
  await expectStatus('adminUnadoptedList', last, 200, 'last page');
  assert.equal(names(last), [`${o}/a5`]);
  assert.is(last.response.headers.get('x-total-count'), '5');
});

test('403: not a site administrator, or a token without the admin scope; 401: anonymous, wrong credentials', async () => {
  await expectStatus('adminUnadoptedList', await listUnadopted(app, owner.auth), 403, 'user');
  await expectStatus('adminUnadoptedList', await listUnadopted(app, await app.token(app.admin, ['read:user'])), 403, 'scope');
  await expectStatus('adminUnadoptedList', await listUnadopted(app, undefined), 401, 'anonymous');
  await expect401('adminUnadoptedList', (auth) => listUnadopted(app, auth));
});

test.run();
