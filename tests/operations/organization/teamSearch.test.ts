// teamSearch: the teams of an organization the caller may see whose name (or description) contains q.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createTeam, orgWorld, type OrgWorld } from '../../helpers/orgs.js';
import { expect401, expectStatus, names } from '../../helpers/people.js';

let app: TestApp;
let w: OrgWorld;
test.before(async () => {
  app = await startApp();
  w = await orgWorld(app, 'private');
  await createTeam(app, w.owner, w.org.name, { name: 'Docs-Writers', description: 'writes the manual', visibility: 'public' });
  await createTeam(app, w.owner, w.org.name, { name: 'hidden-docs', visibility: 'private' });
});
test.after(async () => {
  await app.close();
});

const search = (auth: string | undefined, query: { q?: string; include_desc?: boolean; page?: number; limit?: number }, org = w.org.name) =>
  app.client(auth).GET('/orgs/{org}/teams/search', { params: { path: { org }, query } });

test('200 {ok, data}: names containing q in any case, by name; a private team only for those who may see it', async () => {
  const owner = await search(w.owner.auth, { q: 'DOC' });
  await expectStatus('teamSearch', owner, 200, 'owner');
  assert.is(owner.data!.ok, true);
  assert.equal(names(owner.data!.data), ['Docs-Writers', 'hidden-docs']);
  assert.is(owner.response.headers.get('x-total-count'), '2');
  assert.equal(names((await search(w.member.auth, { q: 'doc' })).data!.data), ['Docs-Writers'], 'a member outside the private team');
});

test('include_desc searches the descriptions too; no q lists the teams of GET /orgs/{org}/teams', async () => {
  assert.equal((await search(w.owner.auth, { q: 'manual' })).data!.data, []);
  assert.equal(names((await search(w.owner.auth, { q: 'manual', include_desc: true })).data!.data), ['Docs-Writers']);
  const all = await search(w.owner.auth, {});
  const listed = await app.client(w.owner.auth).GET('/orgs/{org}/teams', { params: { path: { org: w.org.name } } });
  assert.equal(names(all.data!.data), names(listed.data!));
  const page = await search(w.owner.auth, { q: 'doc', page: 2, limit: 1 });
  assert.equal(names(page.data!.data), ['hidden-docs']);
  assert.is(page.response.headers.get('x-total-count'), '2');
  assert.ok(page.response.headers.get('link')?.includes('rel="prev"'));
});

test('404 for an outsider of a private organization or an unknown one; 401; 403 without the organization scope', async () => {
  await expectStatus('teamSearch', await search(w.outsider.auth, { q: 'doc' }), 404, 'outsider');
  await expectStatus('teamSearch', await search(w.owner.auth, {}, 'nobody-here'), 404, 'unknown');
  assert.is((await search(undefined, {})).response.status, 401);
  await expect401('teamSearch', (auth) => search(auth, {}));
  const wrong = await search(await app.token(w.owner, ['read:repository']), {});
  await expectStatus('teamSearch', wrong, 403, 'no organization scope');
});

test.run();
