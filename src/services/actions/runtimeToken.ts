// The runtime token a task gets as `gitea_runtime_token` (act_runner's ACTIONS_RUNTIME_TOKEN), as Gitea
// issues it: a JWT (HS256) whose `scp` claim is `Actions.Results:<run>:<job>`, with TaskID, RunID and
// JobID, valid an hour past the endless-task timeout. actions/upload-artifact@v4's toolkit reads its run
// and job from `scp`, so the token must be this JWT, not the bare task token. The artifact protocols take
// either. The signing key is derived from the secrets key (SECRET_KEY, src/services/actions/secretBox.ts)
// and the task's stored token hash: no new secret to keep, and a token names one task only. Any key of
// the keyring verifies (so a rotation does not break running tasks); the task must still be running.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SecretKey } from './secretBox.js';

export interface RuntimeClaims {
  taskId: number;
  runId: number;
  jobId: number;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

const signingKey = (key: SecretKey, tokenHash: string) => createHmac('sha256', key.key).update(`anvil runtime token\0${tokenHash}`).digest();

const signature = (key: SecretKey, tokenHash: string, signed: string) => createHmac('sha256', signingKey(key, tokenHash)).update(signed).digest('base64url');

export function issueRuntimeToken(key: SecretKey, tokenHash: string, c: RuntimeClaims, validMs: number, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const payload = {
    exp: iat + Math.ceil(validMs / 1000), nbf: iat,
    scp: `Actions.Results:${c.runId}:${c.jobId}`,
    ac: JSON.stringify([{ Scope: '', Permission: 2 }]),
    TaskID: c.taskId, RunID: c.runId, JobID: c.jobId,
  };
  const signed = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${signed}.${signature(key, tokenHash, signed)}`;
}

/** The claims of a token that looks like ours (not yet verified), or undefined. */
export function readRuntimeToken(token: string): (RuntimeClaims & { exp: number; nbf: number }) | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > 4096) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as { alg?: unknown };
    const p = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (header.alg !== 'HS256') return undefined;
    const n = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined);
    const [taskId, runId, jobId, exp, nbf] = [n(p.TaskID), n(p.RunID), n(p.JobID), n(p.exp), n(p.nbf) ?? 0];
    if (taskId === undefined || runId === undefined || jobId === undefined || exp === undefined) return undefined;
    return { taskId, runId, jobId, exp, nbf };
  } catch {
    return undefined;
  }
}

/** Whether `token` was signed for the task whose token hash is `tokenHash` and is within its time. */
export function verifyRuntimeToken(keys: SecretKey[], tokenHash: string, token: string, now = Date.now()): boolean {
  const claims = readRuntimeToken(token);
  if (!claims) return false;
  const seconds = now / 1000;
  if (claims.exp < seconds || claims.nbf > seconds + 60) return false;
  const i = token.lastIndexOf('.');
  const got = Buffer.from(token.slice(i + 1));
  return keys.some((k) => {
    const want = Buffer.from(signature(k, tokenHash, token.slice(0, i)));
    return want.length === got.length && timingSafeEqual(want, got);
  });
}
