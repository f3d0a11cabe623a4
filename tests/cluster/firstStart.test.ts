// Processes started together on an empty PostgreSQL database (#31): all of them come up, the migrations
// are applied once and there is one site administrator. With the production password-hash cost the first
// process spends a while making the administrator, the window in which the others used to look, find no
// user, try to make it too and die ("cannot create the first administrator … user already exists").
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
});

test.run();
