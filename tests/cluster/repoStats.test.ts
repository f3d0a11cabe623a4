// The repository statistics job (#38: languages, licenses) with two anvil processes on one PostgreSQL
// database behind haproxy: every process runs the worker, yet each marked change is computed by exactly
// one round (repo_stats.rounds counts them), whichever process served the push.
import * as assert from 'uvu/assert';
import { eq, inArray } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/db/client.js';
import { repoStats } from '../../src/db/schema/index.js';
import { call, clusterTest, startCluster, type Answer, type Cluster } from '../helpers/cluster.js';
import { adminCredentials } from '../helpers/harness.js';
import { eventually } from '../helpers/hooks.js';

const test = clusterTest('tests/cluster/repoStats.test.ts');
const n = 6;

let cluster: Cluster;
let database: Database;

test.before(async () => {
  cluster = await startCluster();
  database = await openDatabase({ kind: 'postgres', url: cluster.databaseUrl });
});
test.after(async () => {
  await database?.close();
  await cluster?.close();
});

const ok = (r: Answer, status: number, what: string) => assert.is(r.status, status, `${what}: ${JSON.stringify(r.json)}`);

/** Waits until no round is wanted or under way for `ids` (and, with `commits`, each computed that commit). */
async function settled(ids: number[], commits?: Map<number, string>): Promise<Map<number, number>> {
  return eventually(async () => {
    const rows = await database.db.select().from(repoStats).where(inArray(repoStats.repoId, ids));
    const done = rows.length === ids.length && rows.every((r) => r.wantedAt === null && r.leasedBy === null && r.computedAt !== null
      && (!commits || r.commit === commits.get(r.repoId)));
    return done && new Map(rows.map((r) => [r.repoId, Number(r.rounds)]));
  }, 'the statistics rounds', 60_000);
}

test(`${n} repositories pushed to through two processes: each change computed by exactly one round`, async () => {
  const bases = cluster.nodes.map((p) => p.url);
  const repos = await Promise.all(Array.from({ length: n }, async (_, i) => {
    const r = await call(bases[i % 2]!, cluster.auth, 'POST', '/user/repos', { name: `stats-${i}`, auto_init: true });
    ok(r, 201, 'create');
    return r.json as { id: number; name: string };
  }));
  const ids = repos.map((r) => r.id);
  const first = await settled(ids);
  for (const id of ids) assert.is(first.get(id), 1, `repository ${id}: one round for its creation`);
  // One push each, all at once, through alternating processes.
  const pushed = await Promise.all(repos.map(async (repo, i) => {
    const r = await call(bases[(i + 1) % 2]!, cluster.auth, 'POST', `/repos/${adminCredentials.username}/${repo.name}/contents`, {
      files: [{ operation: 'create', path: 'main.go', content: Buffer.from('package main\n').toString('base64') }],
    });
    ok(r, 201, 'push');
    return [repo.id, r.json.commit.sha as string] as const;
  }));
  const second = await settled(ids, new Map(pushed));
  for (const id of ids) assert.is(second.get(id), 2, `repository ${id}: one more round for its push`);
  for (const repo of repos) {
    const langs = await call(cluster.url, cluster.auth, 'GET', `/repos/${adminCredentials.username}/${repo.name}/languages`);
    ok(langs, 200, 'languages');
    assert.equal(langs.json, { Go: 'package main\n'.length });
    const json = await call(cluster.url, cluster.auth, 'GET', `/repos/${adminCredentials.username}/${repo.name}`);
    assert.is(json.json.language, 'Go');
  }
  const [row] = await database.db.select().from(repoStats).where(eq(repoStats.repoId, ids[0]!));
  assert.ok(row!.leasedBy === null && row!.wantedAt === null);
});

test.run();
