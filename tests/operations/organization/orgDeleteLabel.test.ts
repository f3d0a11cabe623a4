import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, getIssue, newIssue } from '../../helpers/issues.js';
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

const del = (org: string, id: number, authorization?: string) =>
  app.client(authorization).DELETE('/orgs/{org}/labels/{id}', { params: { path: { org, id } } });

test('204: an owner deletes a label, which leaves the issues of the organization\'s repositories; then 404', async () => {
  const { w, repo } = await orgWithRepo(app, 'public', pub);
  const [gone, kept] = await Promise.all([newOrgLabel(app, w.name, w.owner, { name: 'gone' }), newOrgLabel(app, w.name, w.owner, { name: 'kept' })]);
  const issue = await newIssue(app, repo, w.owner, { labels: [gone.id, kept.id] });
  const r = await del(w.name, gone.id, w.owner.auth);
  assert.is(r.response.status, 204);
  assertSpec('orgDeleteLabel', r);
  assert.equal((await getIssue(app, repo, issue.number)).labels, [kept]);
  assertEmpty404(await del(w.name, gone.id, w.owner.auth), 'deleted already');
  assert.is((await del(w.name, kept.id, (await siteAdmin(app)).auth)).response.status, 204, 'site admin');
});

test('403: a team admin, a member and an outsider; 401: anonymous', async () => {
  const label = await newOrgLabel(app, pub.name, pub.owner);
  for (const [who, as] of [['team admin', pub.teamAdmin], ['member', pub.member], ['outsider', pub.outsider]] as const) {
    const r = await del(pub.name, label.id, as.auth);
    assert.is(r.response.status, 403, who);
    assertSpec('orgDeleteLabel', r);
  }
  assert.is((await del(pub.name, label.id)).response.status, 401);
});

test('404: a private organization for an outsider, a label of another organization', async () => {
  const secret = await newOrgLabel(app, priv.name, priv.owner);
  assertEmpty404(await del(priv.name, secret.id, priv.outsider.auth), 'outsider');
  const r = await del(pub.name, secret.id, pub.owner.auth);
  assertEmpty404(r, 'another organization');
  assertSpec('orgDeleteLabel', r);
});

test.run();
