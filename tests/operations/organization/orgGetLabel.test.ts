import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, newLabel } from '../../helpers/issues.js';
import { newOrgLabel, orgWithRepo } from '../../helpers/labels.js';
import { orgWorld, siteAdmin, type OrgWorld } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

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

const get = (org: string, id: number, authorization?: string) =>
  app.client(authorization).GET('/orgs/{org}/labels/{id}', { params: { path: { org, id } } });

test('200: signed-in callers who see the organization', async () => {
  const label = await newOrgLabel(app, pub.name, pub.owner, { description: 'x' });
  for (const [who, as] of [['outsider', pub.outsider], ['member', pub.member], ['site admin', await siteAdmin(app)]] as const) {
    const r = await get(pub.name, label.id, as.auth);
    assert.is(r.response.status, 200, who);
    assertSpec('orgGetLabel', r);
    assert.equal(r.data, label, who);
  }
  const secret = await newOrgLabel(app, priv.name, priv.owner);
  assert.equal((await get(priv.name, secret.id, priv.member.auth)).data, secret, 'member of a private organization');
});

test('401: anonymous (Gitea requires a token here)', async () => {
  const label = await newOrgLabel(app, pub.name, pub.owner);
  const r = await get(pub.name, label.id);
  assert.is(r.response.status, 401);
  assertSpec('orgGetLabel', r);
});

test('404: a private organization for an outsider, a label of another organization or of a repository, an unknown id', async () => {
  const secret = await newOrgLabel(app, priv.name, priv.owner);
  const r = await get(priv.name, secret.id, priv.outsider.auth);
  assertEmpty404(r, 'outsider');
  assertSpec('orgGetLabel', r);
  assertEmpty404(await get(pub.name, secret.id, pub.owner.auth), 'another organization');
  const { w, repo } = await orgWithRepo(app, 'public', pub);
  const repoLabel = await newLabel(app, repo, w.owner);
  assertEmpty404(await get(w.name, repoLabel.id, w.owner.auth), 'a repository label');
  assertEmpty404(await get(pub.name, 999999, pub.owner.auth), 'unknown');
});

test.run();
