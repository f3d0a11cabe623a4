import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { messageOf, orgWorld, siteAdmin, swaggerOf, type OrgWorld } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import type { components } from '../../../generated/openapi.js';

let app: TestApp;
let pub: OrgWorld;
let priv: OrgWorld;

test.before(async () => {
  app = await startApp();
  pub = await orgWorld(app);
  priv = await orgWorld(app, 'private', pub);
});
test.after(async () => {
  await app.close();
});

const create = (org: string, body: components['schemas']['CreateLabelOption'], authorization?: string) =>
  app.client(authorization).POST('/orgs/{org}/labels', { params: { path: { org } }, body });

test('201: an owner and the site admin create labels; the answer is the complete Label with the organization\'s URL', async () => {
  const r = await create(pub.name, { name: 'area/api', color: '#00AA11', description: 'd', exclusive: true }, pub.owner.auth);
  assert.is(r.response.status, 201, JSON.stringify(r.error));
  assertSpec('orgCreateLabel', r);
  assert.equal(r.data, {
    id: r.data!.id, name: 'area/api', exclusive: true, is_archived: false, color: '00aa11', description: 'd',
    url: `${app.config.rootUrl}api/v1/orgs/${pub.name}/labels/${r.data!.id}`,
  });
  const byAdmin = await create(priv.name, { name: 'x', color: 'abc', is_archived: true }, (await siteAdmin(app)).auth);
  assert.is(byAdmin.response.status, 201);
  assert.is(byAdmin.data!.is_archived, true);
  const listed = await app.client(pub.owner.auth).GET('/orgs/{org}/labels', { params: { path: { org: pub.name } } });
  assert.equal(listed.data, [r.data]);
});

test('403: a team admin, a member and an outsider of a public organization; 401: anonymous', async () => {
  for (const [who, as] of [['team admin', pub.teamAdmin], ['member', pub.member], ['outsider', pub.outsider]] as const) {
    const r = await create(pub.name, { name: 'nope', color: '000000' }, as.auth);
    assert.is(r.response.status, 403, who);
    assertSpec('orgCreateLabel', r);
    assert.is(messageOf(r.error), 'Must be an organization owner');
  }
  assert.is((await create(pub.name, { name: 'nope', color: '000000' })).response.status, 401);
});

test('404: a private organization for an outsider, an unknown organization', async () => {
  const r = await create(priv.name, { name: 'x', color: '000000' }, priv.outsider.auth);
  assertEmpty404(r, 'outsider');
  assertSpec('orgCreateLabel', r);
  assertEmpty404(await create('no-such-org', { name: 'x', color: '000000' }, pub.owner.auth), 'unknown');
});

test('422: empty or blank name, bad colour', async () => {
  for (const [what, body] of [['empty name', { name: '', color: '000000' }], ['blank name', { name: ' ', color: '000000' }], ['bad colour', { name: 'x', color: 'xyz' }]] as const) {
    const r = await create(pub.name, body, pub.owner.auth);
    assert.is(r.response.status, 422, what);
    assertSpec('orgCreateLabel', r);
    assert.is((r.error as { url: string }).url, swaggerOf(app));
  }
});

test.run();
