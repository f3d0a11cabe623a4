// No credential reaches a log line (#32): tokens in the query string of the access log and of a failed
// request's error line, and whatever an error's text carries. The app logs through the production logger.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { newIssue } from '../helpers/issues.js';
import { actor, pathOf, raw, userRepo, type Actor, type Repository } from '../helpers/repos.js';

let app: TestApp;
const lines: string[] = [];
let alice: Actor;
let repo: Repository;

test.before(async () => {
  app = await startApp({}, { logLines: lines });
  alice = await actor(app);
  repo = await userRepo(app, alice, { name: 'logged' });
  await newIssue(app, { ...repo, path: pathOf(repo) }, alice, { title: 'one' });
});
test.after(async () => {
  await app?.close();
});

const secretOf = (auth: string) => auth.replace(/^token /, '');
const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

function assertNowhere(secret: string, label: string) {
  const hits = lines.filter((l) => l.toLowerCase().includes(secret.toLowerCase()));
  assert.equal(hits, [], `${label}: a log line carries the secret`);
}

test('the access log names the whole URL with ?token=, ?access_token= and ?sudo= masked', async () => {
  const token = secretOf(await app.token(alice));
  const other = secretOf(await app.token(alice));
  const path = `/repos/${repo.full_name}/issues?state=all&token=${token}`;
  const res = await raw(app, 'GET', path);
  assert.is(res.response.status, 200, res.text);
  assert.is((await raw(app, 'GET', `/repos/${repo.full_name}/issues?access_token=${other}&sudo=${alice.username}&limit=5`)).response.status, 403, 'sudo needs an administrator');
  const logged = entries().filter((e) => e.msg === 'request' && e.method === 'GET' && String(e.url).startsWith(`/api/v1/repos/${repo.full_name}/issues`)).map((e) => e.url);
  assert.equal(logged, [
    `/api/v1/repos/${repo.full_name}/issues?state=all&token=*****`,
    `/api/v1/repos/${repo.full_name}/issues?access_token=*****&sudo=*****&limit=5`,
  ]);
  assertNowhere(token, 'token=');
  assertNowhere(other, 'access_token=');
});

test("a request that fails unexpectedly: its error line keeps the URL's shape without the token", async () => {
  const token = secretOf(await app.token(alice));
  // Another process's migration gone wrong: the table the list reads has gone away.
  await app.sqlFromElsewhere('ALTER TABLE issues RENAME TO issues_gone');
  const res = await raw(app, 'GET', `/repos/${repo.full_name}/issues?milestones=7&token=${token}`);
  assert.is(res.response.status, 500, res.text);
  assert.equal(res.body, { message: 'internal server error', url: `${app.config.rootUrl}api/swagger` });
  const failed = entries().filter((e) => e.msg === 'request failed');
  assert.is(failed.length, 1, lines.join('\n'));
  assert.is(failed[0]!.url, `/api/v1/repos/${repo.full_name}/issues?milestones=7&token=*****`);
  assertNowhere(token, 'the error line');
});

test.run();
