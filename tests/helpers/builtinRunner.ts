// The built-in runner (src/runner) started in the test process against a test app, registered with the
// site's registration token, and helpers to wait for a run's end and read its jobs' stored logs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { startRunner, type RunningRunner } from '../../src/runner/daemon.js';
import { actionRuns, type ActionRunRow } from '../../src/db/schema/index.js';
import { registrationToken } from './actions.js';
import { eventually } from './hooks.js';
import type { TestApp } from './harness.js';

export interface BuiltinRunner extends RunningRunner {
  dir: string;
  name: string;
  close(): Promise<void>;
}

let n = 0;

export async function builtinRunner(app: TestApp, labels = ['ubuntu-latest', 'linux']): Promise<BuiltinRunner> {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-runner-'));
  const name = `builtin-${++n}`;
  const started = await startRunner({
    instance: `${app.url}/`, dir, name, labels, registrationToken: await registrationToken(app), fetchIntervalMs: 100, reportIntervalMs: 200,
  });
  return {
    ...started, dir, name, stop: started.stop,
    async close() {
      await started.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The run once it ended. */
export async function endedRun(app: TestApp, runId: number, ms = 60_000): Promise<ActionRunRow> {
  return eventually(async () => {
    const [run] = await app.services.deps.db.select().from(actionRuns).where(eq(actionRuns.id, runId));
    return run && ['success', 'failure', 'cancelled', 'skipped'].includes(run.status) ? run : undefined;
  }, `run ${runId} to end`, ms);
}

/** A job's stored log through the API (GET …/actions/jobs/{job_id}/logs). */
export async function jobLog(app: TestApp, auth: string, owner: string, repo: string, jobId: number): Promise<string> {
  const res = await fetch(`${app.url}/api/v1/repos/${owner}/${repo}/actions/jobs/${jobId}/logs`, { headers: { authorization: auth } });
  assert.is(res.status, 200, `the log of job ${jobId}`);
  return res.text();
}
