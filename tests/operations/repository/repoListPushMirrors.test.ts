import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pushMirrorEnv, pushMirrorWorld, statusIs, type PushMirror, type PushMirrorWorld } from '../../helpers/pushMirrors.js';
import { userRepo } from '../../helpers/repos.js';

let app: TestApp;
let w: PushMirrorWorld;
const added: PushMirror[] = [];

test.before(async () => {
  app = await startApp(pushMirrorEnv);
  w = await pushMirrorWorld(app);
  for (const i of [1, 2, 3]) {
    const res = await w.add({ remote_address: `http://user${i}:pw${i}@127.0.0.1:9/x/y${i}.git`, interval: `${i}h`, sync_on_commit: i === 2 });
    statusIs(res, 200);
    added.push(res.data!);
  }
});
test.after(async () => {
  await app.close();
});

const list = (auth: string, query: { page?: number; limit?: number } = {}, path = w.path) =>
  app.client(auth).GET('/repos/{owner}/{repo}/push_mirrors', { params: { path, query } });

test('200: every push mirror, oldest first, as added; never a credential', async () => {
  const res = await list(w.owner.auth);
  statusIs(res, 200);
  assert.equal(res.data, added);
  assert.equal(res.data!.map((m) => [m.remote_address, m.interval, m.sync_on_commit]), [
    ['http://127.0.0.1:9/x/y1.git', '1h0m0s', false], ['http://127.0.0.1:9/x/y2.git', '2h0m0s', true], ['http://127.0.0.1:9/x/y3.git', '3h0m0s', false],
  ]);
  assert.not.match(JSON.stringify(res.data), /pw\d|user\d/);
  assert.is(res.response.headers.get('x-total-count'), '3');
});

test('200: paginated with X-Total-Count and Link', async () => {
  const first = await list(w.owner.auth, { limit: 2 });
  assert.equal(first.data!.map((m) => m.remote_name), added.slice(0, 2).map((m) => m.remote_name));
  assert.is(first.response.headers.get('x-total-count'), '3');
  assert.match(first.response.headers.get('link') ?? '', /rel="next"/);
  const second = await list(w.owner.auth, { limit: 2, page: 2 });
  assert.equal(second.data!.map((m) => m.remote_name), [added[2]!.remote_name]);
  assert.equal((await list(w.owner.auth, { limit: 2, page: 3 })).data, []);
});

test('200 and empty for a repository without push mirrors; another repository\'s mirrors are not listed', async () => {
  const other = await userRepo(app, w.owner, { auto_init: true });
  const res = await list(w.owner.auth, {}, { owner: w.owner.username, repo: other.name });
  statusIs(res, 200);
  assert.equal(res.data, []);
  assert.is(res.response.headers.get('x-total-count'), '0');
});

test('200 for a repository admin and a site admin; 403 for a writer and a reader; 404 for an outsider; 401 anonymous', async () => {
  assert.is((await list(w.repoAdmin.auth)).data!.length, 3);
  assert.is((await list(w.siteAdmin.auth)).data!.length, 3);
  statusIs(await list(w.writer.auth), 403, 'writer');
  statusIs(await list(w.reader.auth), 403, 'reader');
  statusIs(await list(w.outsider.auth), 404, 'outsider');
  statusIs(await list(''), 401, 'anonymous');
});

test.run();
