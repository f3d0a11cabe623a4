// GET /repos/{owner}/{repo}/activities/feeds: the repository's rows, to those who can see it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { feed, opTypes } from '../../helpers/events.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';
import { actor, addCollaborator, pathOf, siteAdmin, userRepo, type Actor, type Repository } from '../../helpers/repos.js';

let app: TestApp;
let owner: Actor;
let reader: Actor;
let outsider: Actor;
let admin: Actor;
let pub: Repository;
let priv: Repository;

test.before(async () => {
  app = await startApp();
  [owner, reader, outsider, admin] = await Promise.all([actor(app), actor(app), actor(app), siteAdmin(app)]);
  [pub, priv] = await Promise.all([userRepo(app, owner, { auto_init: true }), userRepo(app, owner, { auto_init: true, private: true })]);
  await addCollaborator(app, priv, reader, 'read');
  const tag = await app.client(owner.auth).POST('/repos/{owner}/{repo}/tags', { params: { path: pathOf(priv) }, body: { tag_name: 'v1' } });
  assert.is(tag.response.status, 201);
});
test.after(async () => {
  await app?.close();
});

test('200: a public repository for anyone', async () => {
  for (const auth of [undefined, outsider.auth]) {
    const f = await feed(app, pathOf(pub), auth);
    assertSpecAnswer('repoListActivityFeeds', f.status, f.data);
    assert.equal(opTypes(f.data), ['create_repo']);
    assert.is(f.total, '1');
    assert.is(f.data![0]!.repo.full_name, pub.full_name);
  }
});

test('200: a private repository for its readers and site admins', async () => {
  for (const who of [owner, reader, admin]) {
    const f = await feed(app, pathOf(priv), who.auth);
    assert.is(f.status, 200, who.username);
    assert.equal(opTypes(f.data), ['push_tag', 'create_repo']);
    assert.is(f.data![0]!.ref_name, 'refs/tags/v1');
    assert.is(f.data![0]!.repo.permissions?.pull, true);
  }
});

test('404: a private repository to anonymous callers and outsiders; an unknown one', async () => {
  for (const [path, auth] of [[pathOf(priv), undefined], [pathOf(priv), outsider.auth], [{ owner: owner.username, repo: 'nope' }, admin.auth]] as const) {
    const f = await feed(app, path, auth);
    assert.is(f.status, 404);
    assert.is(f.text, '');
  }
});

test('date: that day only; 422 for an impossible date', async () => {
  const today = new Date().toISOString().slice(0, 10);
  assert.is((await feed(app, pathOf(pub), undefined, { date: today })).total, '1');
  assert.is((await feed(app, pathOf(pub), undefined, { date: '1999-12-31' })).total, '0');
  assert.is((await feed(app, pathOf(pub), undefined, { date: '2023-02-29' })).status, 422);
});

test.run();
