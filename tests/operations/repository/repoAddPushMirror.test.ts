import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pushMirrors } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pushMirrorEnv, pushMirrorWorld, statusIs, type PushMirror, type PushMirrorWorld } from '../../helpers/pushMirrors.js';
import { messageOf, userRepo } from '../../helpers/repos.js';

let app: TestApp;
let w: PushMirrorWorld;
const remote = () => `${app.url}/someone/elsewhere.git`;

test.before(async () => {
  app = await startApp(pushMirrorEnv);
  w = await pushMirrorWorld(app);
});
test.after(async () => {
  await app.close();
});

const rowsOf = (repoId: number) => app.services.deps.db.select().from(pushMirrors).where(eq(pushMirrors.repoId, repoId));

test('200: named as Gitea names it, the address without credentials, the defaults; the credentials sealed and never shown', async () => {
  const address = remote().replace('http://', 'http://carol:s3cret-pw@');
  const res = await w.add({ remote_address: address });
  statusIs(res, 200);
  const m = res.data as PushMirror;
  assert.match(m.remote_name, /^remote_mirror_[A-Za-z0-9]{10}$/);
  assert.is(m.remote_address, remote());
  assert.is(m.repo_name, w.repo.name);
  assert.equal([m.interval, m.sync_on_commit, m.last_update, m.last_error], ['8h0m0s', false, null, '']);
  assert.ok(Math.abs(Date.parse(m.created) - Date.now()) < 60_000);
  assert.not.match(JSON.stringify(m), /s3cret-pw|carol/);
  const [row] = (await rowsOf(w.repo.id!)).filter((r) => r.remoteName === m.remote_name);
  assert.ok(row!.credentials);
  assert.not.match(row!.credentials!, /s3cret-pw/);
  assert.ok(row!.nextSyncAt!.getTime() > Date.now() + 7 * 3600_000);
  // Credentials given apart; an interval of 0 schedules nothing; sync_on_commit kept.
  const other = await w.add({ remote_address: remote(), remote_username: 'dave', remote_password: 'pw2', interval: '0', sync_on_commit: true });
  statusIs(other, 200);
  assert.equal([other.data!.interval, other.data!.sync_on_commit], ['0s', true]);
  const [row2] = (await rowsOf(w.repo.id!)).filter((r) => r.remoteName === other.data!.remote_name);
  assert.equal([row2!.intervalSeconds, row2!.nextSyncAt], [0, null]);
  assert.not.match(row2!.credentials!, /pw2/);
  assert.is.not(other.data!.remote_name, m.remote_name);
  // No credentials at all: nothing sealed.
  const bare = await w.add({ remote_address: remote(), interval: '10m' });
  assert.is(bare.data!.interval, '10m0s');
  const [row3] = (await rowsOf(w.repo.id!)).filter((r) => r.remoteName === bare.data!.remote_name);
  assert.is(row3!.credentials, null);
});

test('200 for a repository admin and a site admin; 403 for a writer and a reader; 404 for an outsider; 401 anonymous', async () => {
  statusIs(await w.add({ remote_address: remote() }, w.repoAdmin.auth), 200, 'repo admin');
  statusIs(await w.add({ remote_address: remote() }, w.siteAdmin.auth), 200, 'site admin');
  const before = (await rowsOf(w.repo.id!)).length;
  statusIs(await w.add({ remote_address: remote() }, w.writer.auth), 403, 'writer');
  statusIs(await w.add({ remote_address: remote() }, w.reader.auth), 403, 'reader');
  statusIs(await w.add({ remote_address: remote() }, w.outsider.auth), 404, 'outsider');
  statusIs(await w.add({ remote_address: remote() }, ''), 401, 'anonymous');
  assert.is((await rowsOf(w.repo.id!)).length, before);
});

test('400: an address that is no HTTP(S) URL, a bad or too short interval, a blocked or loopback host; nothing stored', async () => {
  const before = (await rowsOf(w.repo.id!)).length;
  for (const [body, message] of [
    [{ remote_address: 'ftp://127.0.0.1/x.git' }, /HTTP or HTTPS/],
    [{ remote_address: 'not a url' }, /HTTP or HTTPS/],
    [{ remote_address: 'https://%zz:pw@127.0.0.1/x.git' }, /user name or password/],
    [{ remote_address: remote(), interval: 'soon' }, /invalid interval "soon"/],
    [{ remote_address: remote(), interval: '-1h' }, /invalid interval/],
  ] as const) {
    const res = await w.add(body);
    statusIs(res, 400, JSON.stringify(body));
    assert.match(messageOf(res.error), message);
  }
  const cfg = app.services.deps.config.migrations;
  const saved = { ...cfg };
  try {
    cfg.mirrorMinIntervalS = 600;
    const short = await w.add({ remote_address: remote(), interval: '1m' });
    statusIs(short, 400);
    assert.match(messageOf(short.error), /interval must be at least 600s/);
    cfg.allowLocalNetworks = false;
    const loop = await w.add({ remote_address: remote() });
    statusIs(loop, 400);
    assert.match(messageOf(loop.error), /private or loopback/);
    cfg.allowLocalNetworks = true;
    cfg.blockedDomains = '*.blocked.example';
    const blocked = await w.add({ remote_address: 'https://git.blocked.example/a/b.git' });
    statusIs(blocked, 400);
    assert.match(messageOf(blocked.error), /disallowed hosts: git\.blocked\.example/);
  } finally {
    Object.assign(cfg, saved);
  }
  assert.is((await rowsOf(w.repo.id!)).length, before);
});

test('422 without remote_address; 423 for an archived repository', async () => {
  statusIs(await w.add({} as never), 422);
  const archived = await userRepo(app, w.owner, { auto_init: true });
  const path = { owner: w.owner.username, repo: archived.name };
  statusIs(await app.client(w.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path }, body: { archived: true } }), 200);
  statusIs(await w.add({ remote_address: remote() }, w.owner.auth, path), 423);
  assert.is((await rowsOf(archived.id!)).length, 0);
});

test.run();
