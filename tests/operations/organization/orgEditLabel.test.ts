import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { newOrgLabel } from '../../helpers/labels.js';
import { messageOf, orgWorld, siteAdmin, type OrgWorld } from '../../helpers/repos.js';
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

const edit = (org: string, id: number, body: components['schemas']['EditLabelOption'], authorization?: string) =>
  app.client(authorization).PATCH('/orgs/{org}/labels/{id}', { params: { path: { org, id } }, body });

test('200: an owner and the site admin change the fields given; GET answers the same', async () => {
  const label = await newOrgLabel(app, pub.name, pub.owner, { name: 'old', description: 'kept' });
  const r = await edit(pub.name, label.id, { name: 'new', color: '#123456', exclusive: true, is_archived: true }, pub.owner.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('orgEditLabel', r);
  assert.equal(r.data, { ...label, name: 'new', color: '123456', exclusive: true, is_archived: true });
  const got = await app.client(pub.member.auth).GET('/orgs/{org}/labels/{id}', { params: { path: { org: pub.name, id: label.id } } });
  assert.equal(got.data, r.data);
  const byAdmin = await edit(pub.name, label.id, { description: 'new text' }, (await siteAdmin(app)).auth);
  assert.equal(byAdmin.data, { ...r.data!, description: 'new text', is_archived: false });
});

test('403: a team admin, a member and an outsider; 401: anonymous', async () => {
  const label = await newOrgLabel(app, pub.name, pub.owner);
  for (const [who, as] of [['team admin', pub.teamAdmin], ['member', pub.member], ['outsider', pub.outsider]] as const) {
    const r = await edit(pub.name, label.id, { name: 'nope' }, as.auth);
    assert.is(r.response.status, 403, who);
    assertSpec('orgEditLabel', r);
    assert.is(messageOf(r.error), 'Must be an organization owner');
  }
  assert.is((await edit(pub.name, label.id, { name: 'nope' })).response.status, 401);
});

test('404: a private organization for an outsider, a label of another organization; 422: a bad colour', async () => {
  const secret = await newOrgLabel(app, priv.name, priv.owner);
  assertEmpty404(await edit(priv.name, secret.id, { name: 'x' }, priv.outsider.auth), 'outsider');
  const r = await edit(pub.name, secret.id, { name: 'x' }, pub.owner.auth);
  assertEmpty404(r, 'another organization');
  assertSpec('orgEditLabel', r);
  const bad = await edit(priv.name, secret.id, { color: 'nothex' }, priv.owner.auth);
  assert.is(bad.response.status, 422);
  assertSpec('orgEditLabel', bad);
});

test.run();
