import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';
import { pathOf, userRepo } from '../../helpers/repos.js';

let app: TestApp;
let a: Actor;
let other: Actor;

test.before(async () => {
  app = await startApp();
  [a, other] = await Promise.all([actor(app), actor(app)]);
  const [open, secret] = await Promise.all([userRepo(app, a), userRepo(app, a, { private: true })]);
  for (const repo of [open, open, secret]) {
    const res = await app.client(a.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: pathOf(repo) }, body: { title: 'counted' } });
    assert.is(res.response.status, 201);
  }
});
test.after(async () => {
  await app.close();
});

const heatmap = (username: string, auth?: string) => app.client(auth).GET('/users/{username}/heatmap', { params: { path: { username } } });
const total = (xs: Array<{ contributions: number }>) => xs.reduce((n, x) => n + x.contributions, 0);

test("200: the user's actions per quarter hour; private repositories only for those who may see them", async () => {
  const own = await heatmap(a.username, a.auth);
  await expectStatus('userGetHeatmapData', own, 200, 'own');
  const now = Math.floor(Date.now() / 1000);
  for (const d of own.data!) {
    assert.is(d.timestamp % 900, 0, 'the start of a quarter hour');
    assert.ok(d.timestamp <= now && d.timestamp > now - 3600);
  }
  // Creating a repository and opening issues are actions; the private repository's count for its owner.
  const mine = total(own.data!);
  const seen = total((await heatmap(a.username, other.auth)).data!);
  const anonymous = await heatmap(a.username);
  await expectStatus('userGetHeatmapData', anonymous, 200, 'anonymous');
  assert.is(total(anonymous.data!), seen);
  assert.is(mine - seen, 2, 'the private repository (created, one issue) shows to its owner only');
  assert.is(seen >= 2, true, 'the public issues count');
  assert.equal((await heatmap(other.username, a.auth)).data, [], 'no activity');
});

test('404: an unknown or invisible user', async () => {
  const hidden = await actor(app, { visibility: 'private' });
  await expectStatus('userGetHeatmapData', await heatmap('nobody-here', a.auth), 404, 'unknown');
  await expectStatus('userGetHeatmapData', await heatmap(hidden.username, a.auth), 404, 'private');
});

test('401 wrong credentials; 403 token without read:user', async () => {
  await expect401('userGetHeatmapData', (auth) => heatmap(a.username, auth));
  await expectStatus('userGetHeatmapData', await heatmap(a.username, await app.token(a, ['read:repository'])), 403, 'other scope');
});

test.run();
