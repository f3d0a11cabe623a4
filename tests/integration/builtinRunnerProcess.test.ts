// `RUNNER_BUILTIN=true make run` on a fresh machine, as the README claims it: the built server
// (`node dist/main.js`, what `make run` starts) on an empty DATA_DIR and a free port, with nothing else,
// runs a pushed two-job workflow (the second needs the first's output and artifact) to success on the
// runner it starts itself.
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { adminCredentials } from '../helpers/harness.js';
import { processDatabase, removeDir, scratchDir, spawnAnvil, type AnvilProcess } from '../helpers/processes.js';

let anvil: AnvilProcess | undefined;
let db: Awaited<ReturnType<typeof processDatabase>> | undefined;
const dataDir = scratchDir('anvil-builtin-proc-');
const work = scratchDir('anvil-builtin-clone-');

test.after(async () => {
  await anvil?.stop();
  await db?.drop();
  removeDir(dataDir);
  removeDir(work);
});

const ci = `name: CI
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    outputs:
      greeting: \${{ steps.say.outputs.greeting }}
    steps:
      - uses: actions/checkout@v4
      - id: say
        run: echo "greeting=hello from $(cat NAME)" >> "$GITHUB_OUTPUT"
      - run: mkdir out && cp NAME out/name.txt
      - uses: actions/upload-artifact@v4
        with: { name: built, path: out }
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v4
        with: { name: built, path: got }
      - run: |
          test "\${{ needs.build.outputs.greeting }}" = "hello from $(cat got/name.txt)"
          echo "checked: \${{ needs.build.outputs.greeting }}"
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a pushed two-job workflow runs to success on the runner the server started itself', async () => {
  db = await processDatabase();
  anvil = await spawnAnvil({ dataDir, databaseUrl: db.url, env: { RUNNER_BUILTIN: 'true', RUNNER_FETCH_INTERVAL_MS: '200' } });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${anvil!.url}/api/v1${path}`, { ...init, headers: { authorization: anvil!.auth, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const created = await api('/user/repos', { method: 'POST', body: JSON.stringify({ name: 'widgets', auto_init: true }) });
  assert.is(created.status, 201);
  const { clone_url: cloneUrl } = (await created.json()) as { clone_url: string };
  const url = new URL(cloneUrl);
  url.username = adminCredentials.username;
  url.password = adminCredentials.password;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: join(work, 'w'), env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, stdio: 'pipe' });
  execFileSync('git', ['clone', '-q', url.toString(), join(work, 'w')], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, stdio: 'pipe' });
  mkdirSync(join(work, 'w', '.gitea', 'workflows'), { recursive: true });
  writeFileSync(join(work, 'w', '.gitea', 'workflows', 'ci.yml'), ci);
  writeFileSync(join(work, 'w', 'NAME'), 'widgets\n');
  git('add', '-A');
  git('-c', 'user.name=Tester', '-c', 'user.email=tester@example.com', 'commit', '-q', '-m', 'CI');
  git('push', '-q', 'origin', 'HEAD');

  const owner = adminCredentials.username;
  let run: { id: number; status: string; conclusion: string } | undefined;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const res = await api(`/repos/${owner}/widgets/actions/runs`);
    run = ((await res.json()) as { workflow_runs: Array<{ id: number; status: string; conclusion: string }> }).workflow_runs[0];
    if (run?.status === 'completed') break;
    await sleep(500);
  }
  assert.is(run?.status, 'completed', `the run did not end: ${anvil.output().slice(-3000)}`);
  const listed = (await (await api(`/repos/${owner}/widgets/actions/runs/${run!.id}/jobs`)).json()) as { jobs: Array<{ id: number; name: string; conclusion: string }> };
  const jobs = listed.jobs ?? [];
  assert.is(jobs.length, 2, JSON.stringify({ title: (run as { display_title?: string }).display_title, listed }));
  const logs = await Promise.all(jobs.map(async (j) => (await api(`/repos/${owner}/widgets/actions/jobs/${j.id}/logs`)).text()));
  assert.equal(jobs.map((j) => [j.name, j.conclusion]).sort(), [['build', 'success'], ['test', 'success']], logs.join('\n'));
  assert.is(run!.conclusion, 'success');
  assert.ok(logs.some((l) => l.includes('checked: hello from widgets')), logs.join('\n'));
  // The artifact is there through the API too.
  const artifacts = (await (await api(`/repos/${owner}/widgets/actions/runs/${run!.id}/artifacts`)).json()) as { artifacts: Array<{ name: string }> };
  assert.equal(artifacts.artifacts.map((a) => a.name), ['built']);
});

test.run();
