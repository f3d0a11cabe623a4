// Runs GitHub's own artifact client (`@actions/artifact` 2.x for the v4 protocol, 1.x as
// `@actions/artifact-v1` for v1–v3) in a child process (tests/helpers/artifactToolkit.mjs), with the
// environment a runner gives a task's step: ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL (v4),
// ACTIONS_RUNTIME_URL and GITHUB_RUN_ID (v1–v3), GITHUB_WORKSPACE. A child, not this process, because the
// library reads process.env and the test files of a batch share one process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../src/paths.js';

const script = join(projectRoot, 'tests', 'helpers', 'artifactToolkit.mjs');
const RESULT_MARK = '@@artifact-toolkit@@';

/** What a task's context gives the runner, and the step's workspace. */
export interface ToolkitTask {
  serverUrl: string;
  runtimeToken: string;
  runId: string;
  workspace: string;
}

/** The environment act_runner (and the built-in runner) sets for a step, for the artifact client. */
export function toolkitEnv(t: ToolkitTask): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) if (process.env[k]) env[k] = process.env[k]!;
  return {
    ...env,
    ACTIONS_RUNTIME_TOKEN: t.runtimeToken,
    ACTIONS_RESULTS_URL: `${t.serverUrl}/`,
    ACTIONS_RUNTIME_URL: `${t.serverUrl}/api/actions_pipeline/`,
    GITHUB_RUN_ID: t.runId,
    GITHUB_WORKSPACE: t.workspace,
    RUNNER_TEMP: t.workspace,
  };
}

export interface ToolkitAnswer { ok: boolean; result?: unknown; error?: string }
export type ToolkitCall = Record<string, unknown> & { version: 1 | 4; op: string };

/**
 * Calls of the library in one child, in order (`version` 1 or 4 each); their answers, up to the first that
 * failed. Never throws for the library's own errors; `stdout` is the library's log, for messages.
 */
export function toolkit(t: ToolkitTask, calls: ToolkitCall[]): Promise<{ answers: ToolkitAnswer[]; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, JSON.stringify(calls)], { env: toolkitEnv(t), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
      if (!line) return reject(new Error(`artifact client exited ${code} without an answer:\n${stdout}\n${stderr}`));
      resolve({ answers: JSON.parse(line.slice(RESULT_MARK.length)) as ToolkitAnswer[], stdout });
    });
  });
}
