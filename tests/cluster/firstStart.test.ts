// Processes started together on an empty PostgreSQL database (#31): all of them come up, the migrations
// are applied once and there is one site administrator. With the production password-hash cost the first
// process spends a while making the administrator, the window in which the others used to look, find no
// user, try to make it too and die ("cannot create the first administrator … user already exists").
// They also make the SSH host key in the shared data folder at the same moment, and must agree on it.
import { createHash } from 'node:crypto';
import * as assert from 'uvu/assert';
import { call, clusterTest, startCluster, type Cluster } from '../helpers/cluster.js';

const test = clusterTest('tests/cluster/firstStart.test.ts');

let cluster: Cluster | undefined;
test.after(async () => {
  await cluster?.close();
});

test('three processes started together on an empty database all serve, with one administrator', async () => {
  cluster = await startCluster({ count: 3, env: { PASSWORD_HASH_COST: '15' } });
  for (const node of cluster.nodes) {
    const users = await call(node.url, cluster.auth, 'GET', '/admin/users?limit=50');
    assert.is(users.status, 200, `the administrator signs in at ${node.url}: ${JSON.stringify(users.json)}`);
    assert.equal((users.json as Array<{ login: string; is_admin: boolean }>).map((u) => `${u.login}/${u.is_admin}`), ['root/true']);
    assert.not.match(node.output(), /could not start/);
  }
  const seen = new Set<string | null>();
  for (let i = 0; i < 6; i++) seen.add((await call(cluster.url, undefined, 'GET', '/version')).process);
  assert.equal([...seen].sort(), ['p0', 'p1', 'p2'], 'the proxy reaches every process');
  // They made the SSH host key in the shared data folder at the same moment: one key for all of them.
  const keys = await Promise.all(cluster.sshPorts.map(hostKeyOf));
  assert.is(new Set(keys).size, 1, `one host key: ${keys.join(', ')}`);
});

/** The SHA-256 of the host key an SSH server presents (the handshake is stopped there). */
async function hostKeyOf(port: number): Promise<string> {
  const { Client } = await import('ssh2');
  return new Promise((resolve, reject) => {
    const client = new Client();
    let key: string | undefined;
    client.on('error', (err) => (key ? resolve(key) : reject(err)));
    client.connect({
      host: '127.0.0.1', port, username: 'git', readyTimeout: 20_000,
      hostVerifier: (k: Buffer) => {
        key = createHash('sha256').update(k).digest('base64');
        return false;
      },
    });
  });
}

test.run();
