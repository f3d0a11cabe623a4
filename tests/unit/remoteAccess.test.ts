// Which remote addresses a migration or a mirror may reach (services/repos/remoteAccess.ts): loopback and
// private addresses are refused unless MIGRATIONS_ALLOW_LOCALNETWORKS; the domain lists are judged before
// any name is looked up.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config.js';
import { authorizationOf, checkRemote } from '../../src/services/repos/remoteAccess.js';

const cfg = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: '/tmp/unused', ...env }).migrations;

const refused = async (c: ReturnType<typeof cfg>, url: string, pattern: RegExp) => {
  try {
    await checkRemote(c, url, {});
  } catch (err) {
    assert.match((err as Error).message, pattern);
    return;
  }
  assert.unreachable(`${url} was allowed`);
};

test('by default loopback, private and unroutable addresses are refused', async () => {
  for (const url of ['http://127.0.0.1:3000/a/b.git', 'http://[::1]/a/b', 'http://10.1.2.3/a/b', 'http://192.168.0.1/x', 'http://169.254.169.254/x', 'http://0.0.0.0/x', 'http://[::ffff:127.0.0.1]/x']) {
    await refused(cfg(), url, /not allowed/);
  }
});

test('MIGRATIONS_ALLOW_LOCALNETWORKS lets loopback and private addresses through, never unroutable ones', async () => {
  const c = cfg({ MIGRATIONS_ALLOW_LOCALNETWORKS: 'true' });
  const r = await checkRemote(c, 'http://user:pw@127.0.0.1:3000/a/b.git', {});
  assert.is(r.url, 'http://127.0.0.1:3000/a/b.git');
  assert.is(r.address, '127.0.0.1');
  assert.is(r.port, 3000);
  assert.equal(r.credentials, { username: 'user', password: 'pw' });
  await refused(c, 'http://0.0.0.0/x', /not allowed/);
});

test('blocked and allowed domains are judged on the name, before any lookup', async () => {
  await refused(cfg({ MIGRATIONS_BLOCKED_DOMAINS: '*.example.com' }), 'https://git.example.com/a/b', /disallowed hosts/);
  await refused(cfg({ MIGRATIONS_ALLOWED_DOMAINS: 'git.example.org' }), 'https://git.example.com/a/b', /disallowed hosts/);
  await refused(cfg(), 'ssh://git@127.0.0.1/a/b', /HTTP or HTTPS/);
  await refused(cfg(), 'not a url', /HTTP or HTTPS/);
});

test('credentials become one Authorization header: a token wins over a password', () => {
  assert.is(authorizationOf({ token: 'abc', username: 'u', password: 'p' }), 'token abc');
  assert.is(authorizationOf({ username: 'u', password: 'p' }), `Basic ${Buffer.from('u:p').toString('base64')}`);
  assert.is(authorizationOf({}), undefined);
});

test.run();
