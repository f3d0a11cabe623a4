// `make bench`: throughput and memory of a few hot read paths against an in-process server on a
// fresh embedded database. Bounded: a fixed number of requests per scenario on loopback only.
// Results go to stdout and bench/last.json; compare with bench/baseline.json when it exists.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { startApp } from '../tests/helpers/harness.js';

const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

const app = await startApp();
const admin = app.admin.basic;
const token = await app.token(app.admin);
const api = `${app.url}/api/v1`;
const post = (path: string, body: unknown) =>
  fetch(`${api}${path}`, { method: 'POST', headers: { Authorization: token, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
await post('/user/repos', { name: 'bench', auto_init: true });
for (let i = 0; i < 60; i++) await post('/repos/root/bench/issues', { title: `issue ${i}`, body: 'x'.repeat(200) });

async function scenario(name: string, path: string, headers: Record<string, string> = {}) {
  let next = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const t0 = performance.now();
        const res = await fetch(`${api}${path}`, { headers });
        await res.arrayBuffer();
        if (res.status >= 400) throw new Error(`${name}: ${res.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const result = {
    name,
    rps: Math.round(requests / seconds),
    p50ms: Number(latencies[Math.floor(latencies.length / 2)]!.toFixed(2)),
    p99ms: Number(latencies[Math.floor(latencies.length * 0.99)]!.toFixed(2)),
  };
  console.log(`${name.padEnd(28)} ${String(result.rps).padStart(6)} req/s  p50 ${result.p50ms} ms  p99 ${result.p99ms} ms`);
  return result;
}

const results = [
  await scenario('GET /version', '/version'),
  await scenario('GET /repos/{o}/{r} (token)', '/repos/root/bench', { Authorization: token }),
  await scenario('GET issues page (token)', '/repos/root/bench/issues?limit=30', { Authorization: token }),
  await scenario('GET /user (basic)', '/user', { Authorization: admin }),
];
const rssMb = Math.round(process.memoryUsage().rss / 1024 / 1024);
console.log(`rss after run: ${rssMb} MB`);
const out = { date: new Date().toISOString(), requests, concurrency, results, rssMb };
writeFileSync('bench/last.json', JSON.stringify(out, null, 2) + '\n');
if (existsSync('bench/baseline.json')) {
  const base = JSON.parse(readFileSync('bench/baseline.json', 'utf8')) as typeof out;
  for (const r of results) {
    const b = base.results.find((x) => x.name === r.name);
    if (b) console.log(`${r.name.padEnd(28)} ${((r.rps / b.rps - 1) * 100).toFixed(0)}% vs baseline`);
  }
}
await app.close();
