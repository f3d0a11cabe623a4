import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { newOrgLabel } from '../../helpers/labels.js';
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

const list = (org: string, authorization?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(authorization).GET('/orgs/{org}/labels', { params: { path: { org }, query } });

test('200: the organization\'s labels by name, paginated, for anyone who sees a public organization', async () => {
  const b = await newOrgLabel(app, pub.name, pub.owner, { name: 'b' });
  const a = await newOrgLabel(app, pub.name, pub.owner, { name: 'a', exclusive: true });
  for (const [who, auth] of [['anonymous', undefined], ['outsider', pub.outsider.auth], ['member', pub.member.auth]] as const) {
    const r = await list(pub.name, auth);
    assert.is(r.response.status, 200, who);
    assertSpec('orgListLabels', r);
    assert.equal(r.data, [a, b], who);
    assert.is(r.response.headers.get('x-total-count'), '2');
  }
  const page2 = await list(pub.name, undefined, { page: 2, limit: 1 });
  assert.equal(page2.data, [b]);
  assert.match(page2.response.headers.get('link') ?? '', /rel="prev"/);
});

test('200: members and the site admin of a private organization; 404 for outsiders and anonymous callers', async () => {
  const label = await newOrgLabel(app, priv.name, priv.owner);
  for (const [who, auth] of [['member', priv.member.auth], ['site admin', (await siteAdmin(app)).auth]] as const) {
    const r = await list(priv.name, auth);
    assert.is(r.response.status, 200, who);
    assert.equal(r.data, [label], who);
  }
  const r = await list(priv.name, priv.outsider.auth);
  assertEmpty404(r, 'outsider');
  assertSpec('orgListLabels', r);
  assertEmpty404(await list(priv.name), 'anonymous');
  assertEmpty404(await list('no-such-org'), 'unknown organization');
});

test.run();
