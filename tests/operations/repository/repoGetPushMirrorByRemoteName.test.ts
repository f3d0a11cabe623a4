import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pushMirrorEnv, pushMirrorWorld, statusIs, type PushMirror, type PushMirrorWorld } from '../../helpers/pushMirrors.js';
import { userRepo } from '../../helpers/repos.js';

let app: TestApp;
let w: PushMirrorWorld;
let mirror: PushMirror;

test.before(async () => {
  app = await startApp(pushMirrorEnv);
  w = await pushMirrorWorld(app);
  const res = await w.add({ remote_address: 'http://someone:secret@127.0.0.1:9/a/b.git', interval: '90m', sync_on_commit: true });
  statusIs(res, 200);
  mirror = res.data!;
});
test.after(async () => {
  await app.close();
});

const get = (auth: string, name: string, path = w.path) =>
  app.client(auth).GET('/repos/{owner}/{repo}/push_mirrors/{name}', { params: { path: { ...path, name } } });

test('200: the push mirror as added (no credentials)', async () => {
  const res = await get(w.owner.auth, mirror.remote_name);
  statusIs(res, 200);
  assert.equal(res.data, mirror);
  assert.equal([res.data!.interval, res.data!.remote_address, res.data!.sync_on_commit], ['1h30m0s', 'http://127.0.0.1:9/a/b.git', true]);
  assert.not.match(JSON.stringify(res.data), /secret|someone/);
});

test('404 for a name the repository has no push mirror of, also one of another repository', async () => {
  statusIs(await get(w.owner.auth, 'remote_mirror_nothere123'), 404);
  const other = await userRepo(app, w.owner, { auto_init: true });
  statusIs(await get(w.owner.auth, mirror.remote_name, { owner: w.owner.username, repo: other.name }), 404);
});

test('200 for a repository admin and a site admin; 403 for a writer and a reader; 404 for an outsider; 401 anonymous', async () => {
  statusIs(await get(w.repoAdmin.auth, mirror.remote_name), 200, 'repo admin');
  statusIs(await get(w.siteAdmin.auth, mirror.remote_name), 200, 'site admin');
  statusIs(await get(w.writer.auth, mirror.remote_name), 403, 'writer');
  statusIs(await get(w.reader.auth, mirror.remote_name), 403, 'reader');
  statusIs(await get(w.outsider.auth, mirror.remote_name), 404, 'outsider');
  statusIs(await get('', mirror.remote_name), 401, 'anonymous');
});

test.run();
