import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pushMirrorEnv, pushMirrorWorld, statusIs, type PushMirrorWorld } from '../../helpers/pushMirrors.js';
import { userRepo } from '../../helpers/repos.js';

let app: TestApp;
let w: PushMirrorWorld;

test.before(async () => {
  app = await startApp(pushMirrorEnv);
  w = await pushMirrorWorld(app);
});
test.after(async () => {
  await app.close();
});

const add = async () => {
  const res = await w.add({ remote_address: 'http://127.0.0.1:9/a/b.git' });
  statusIs(res, 200);
  return res.data!.remote_name;
};
const del = (auth: string, name: string, path = w.path) =>
  app.client(auth).DELETE('/repos/{owner}/{repo}/push_mirrors/{name}', { params: { path: { ...path, name } } });
const names = async () => (await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/push_mirrors', { params: { path: w.path } })).data!.map((m) => m.remote_name);

test('204: the push mirror goes, the others stay; deleting it again is 404', async () => {
  const [a, b] = [await add(), await add()];
  statusIs(await del(w.owner.auth, a), 204);
  const left = await names();
  assert.ok(!left.includes(a) && left.includes(b));
  statusIs(await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/push_mirrors/{name}', { params: { path: { ...w.path, name: a } } }), 404);
  statusIs(await del(w.owner.auth, a), 404);
});

test('404 for a name of another repository\'s push mirror (it stays)', async () => {
  const name = await add();
  const other = await userRepo(app, w.owner, { auto_init: true });
  statusIs(await del(w.owner.auth, name, { owner: w.owner.username, repo: other.name }), 404);
  assert.ok((await names()).includes(name));
});

test('204 for a repository admin and a site admin; 403 for a writer and a reader; 404 for an outsider; 401 anonymous', async () => {
  const name = await add();
  statusIs(await del(w.writer.auth, name), 403, 'writer');
  statusIs(await del(w.reader.auth, name), 403, 'reader');
  statusIs(await del(w.outsider.auth, name), 404, 'outsider');
  statusIs(await del('', name), 401, 'anonymous');
  assert.ok((await names()).includes(name));
  statusIs(await del(w.repoAdmin.auth, name), 204, 'repo admin');
  statusIs(await del(w.siteAdmin.auth, await add()), 204, 'site admin');
});

test('423 for an archived repository (the mirror stays)', async () => {
  const name = await add();
  statusIs(await app.client(w.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: w.path }, body: { archived: true } }), 200);
  try {
    statusIs(await del(w.owner.auth, name), 423);
  } finally {
    statusIs(await app.client(w.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: w.path }, body: { archived: false } }), 200);
  }
  assert.ok((await names()).includes(name));
});

test.run();
