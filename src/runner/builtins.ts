// The built-in actions: actions/checkout (a fetch over git HTTP with the task's token, as the real
// action does) and actions/upload-artifact / download-artifact (through the artifact protocol, see
// artifacts.ts). The runner downloads no other action.
import { mkdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { downloadArtifact, uploadArtifact } from './artifacts.js';
import { runProcess, type Builtin, type BuiltinCall } from './executor.js';

async function git(call: BuiltinCall, cwd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<void> {
  const out = await runProcess(['git', ...args], {
    cwd, env: { ...call.env, GIT_TERMINAL_PROMPT: '0', ...extraEnv }, signal: call.signal, line: (l) => call.log(l),
  });
  if (out.aborted) throw new Error('cancelled');
  if (out.code !== 0) throw new Error(`git ${args[0]} failed with exit code ${out.code}`);
}

const checkout: Builtin = async (call) => {
  const repository = call.with.repository || String(call.github.repository ?? '');
  const token = call.with.token || String(call.github.token ?? '');
  const server = String(call.github.server_url ?? '').replace(/\/$/, '');
  const dest = call.with.path ? (isAbsolute(call.with.path) ? call.with.path : join(call.workspace, call.with.path)) : call.workspace;
  const ownRepo = repository === String(call.github.repository ?? '');
  const ref = call.with.ref || (ownRepo ? String(call.github.sha ?? '') : 'HEAD');
  const depth = call.with['fetch-depth'] === undefined || call.with['fetch-depth'] === '' ? 1 : Number(call.with['fetch-depth']);
  mkdirSync(dest, { recursive: true });
  call.log(`Syncing repository: ${repository}`);
  const auth = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  await git(call, dest, ['init', '-q']);
  await git(call, dest, ['remote', 'add', 'origin', `${server}/${repository}.git`]).catch(() => git(call, dest, ['remote', 'set-url', 'origin', `${server}/${repository}.git`]));
  const fetchArgs = ['-c', `http.extraheader=${auth}`, 'fetch', '--no-tags', '--prune', '--progress', '--no-recurse-submodules'];
  if (Number.isFinite(depth) && depth > 0) fetchArgs.push(`--depth=${depth}`);
  fetchArgs.push('origin', /^[0-9a-f]{40}$/i.test(ref) || ref === 'HEAD' ? ref : ref.startsWith('refs/') ? `+${ref}:${ref}` : `+refs/heads/${ref}:refs/remotes/origin/${ref}`);
  await git(call, dest, fetchArgs.slice(2), { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraheader', GIT_CONFIG_VALUE_0: auth });
  await git(call, dest, ['checkout', '-q', '--force', '--detach', 'FETCH_HEAD']);
  return {};
};

export function builtinActions(): Record<string, Builtin> {
  return {
    'actions/checkout': checkout,
    'actions/upload-artifact': uploadArtifact,
    'actions/download-artifact': downloadArtifact,
  };
}
