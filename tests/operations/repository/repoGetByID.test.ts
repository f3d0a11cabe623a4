import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { adminActor, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus, peopleWorld, type PeopleWorld } from '../../helpers/people.js';

let app: TestApp;
let w: PeopleWorld;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  [w, admin] = await Promise.all([peopleWorld(app), adminActor(app)]);
});
test.after(async () => {
  await app.close();
});

const get = (id: number, auth?: string) => app.client(auth).GET('/repositories/{id}', { params: { path: { id } } });

test('200: the repository as GET /repos/{owner}/{repo} answers it, to those who may see it', async () => {
  for (const [label, a] of [['outsider', w.outsider], ['member', w.member], ['owner', w.owner], ['admin', admin]] as const) {
    const res = await get(w.open.id, a.auth);
    await expectStatus('repoGetByID', res, 200, label);
    const byName = await app.client(a.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: w.open.name } } });
    assert.equal(res.data, byName.data, `${label}: the same answer`);
  }
  const secret = await get(w.secret.id, w.owner.auth);
  await expectStatus('repoGetByID', secret, 200, 'private, to the owner');
  assert.is(secret.data!.permissions!.admin, true);
});

test('404: a private repository to those who may not see it, an unknown id', async () => {
  await expectStatus('repoGetByID', await get(w.secret.id, w.outsider.auth), 404, 'outsider');
  await expectStatus('repoGetByID', await get(w.secret.id, w.member.auth), 404, 'member without access');
  await expectStatus('repoGetByID', await get(987654321, admin.auth), 404, 'unknown');
});

test('401 anonymous and wrong credentials; 403 token without the repository scope', async () => {
  await expectStatus('repoGetByID', await get(w.open.id), 401, 'anonymous');
  await expect401('repoGetByID', (auth) => get(w.open.id, auth));
  await expectStatus('repoGetByID', await get(w.open.id, await app.token(w.owner, ['read:user'])), 403, 'scope');
});

test.run();
