// Two promises of #35 that had no test: the secrets key's rotation (SECRET_KEY new, SECRET_KEY_PREVIOUS
// old: every secret re-encrypted once, readable all along, tasks get the values) and the bounded retry of
// an Actions trigger that keeps failing (five attempts, then kept with failed_at and its error).
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { actionSecrets, actionTriggers } from '../../src/db/schema/index.js';
import { ActionTriggerWorker, maxTriggerAttempts } from '../../src/jobs/actionTriggers.js';
import type { ActionService } from '../../src/services/actions/runs.js';
import { ActionSettingsService } from '../../src/services/actions/settings.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo } from '../helpers/repos.js';

let app: TestApp;

test.before(async () => {
  app = await startApp({ SECRET_KEY: 'the-old-key' });
});
test.after(async () => {
  await app.close();
});

const settingsWith = (secretKey: string, secretKeyPrevious?: string) =>
  new ActionSettingsService({ ...app.services.deps, config: { ...app.services.deps.config, secretKey, secretKeyPrevious } });

test('rotating the secrets key: re-encrypted once under the new key, readable by tasks before and after; a key no one has is counted unreadable', async () => {
  const owner = await actor(app);
  const repo = await userRepo(app, owner);
  const put = await app.client(owner.basic).PUT('/repos/{owner}/{repo}/actions/secrets/{secretname}', {
    params: { path: { owner: owner.username, repo: repo.name, secretname: 'DEPLOY' } }, body: { data: 's3cr3t-value' },
  });
  assert.is(put.response.status, 201);
  const run = { repoId: repo.id, ownerId: repo.owner!.id!, isForkPullRequest: false };
  const [before] = await app.services.deps.db.select().from(actionSecrets).where(eq(actionSecrets.repoId, repo.id));
  assert.not.match(before!.data, 's3cr3t-value');

  // Only the new key: the value cannot be opened (the task does not get it; nothing is changed).
  assert.is((await settingsWith('the-new-key').secretsForTask(run, 'tok')).DEPLOY, undefined);
  assert.equal(await settingsWith('the-new-key').reencryptSecrets(), { moved: 0, unreadable: 1 });

  // New and previous: both open it meanwhile; the rotation moves it once.
  const rotating = settingsWith('the-new-key', 'the-old-key');
  assert.is((await rotating.secretsForTask(run, 'tok')).DEPLOY, 's3cr3t-value');
  assert.equal(await rotating.reencryptSecrets(), { moved: 1, unreadable: 0 });
  assert.equal(await rotating.reencryptSecrets(), { moved: 0, unreadable: 0 });
  const [after] = await app.services.deps.db.select().from(actionSecrets).where(eq(actionSecrets.repoId, repo.id));
  assert.is.not(after!.data, before!.data);
  // The previous key can go now; the old one alone no longer opens it.
  assert.is((await settingsWith('the-new-key').secretsForTask(run, 'tok')).DEPLOY, 's3cr3t-value');
  assert.is((await settingsWith('the-old-key').secretsForTask(run, 'tok')).DEPLOY, undefined);
});

test('a trigger whose runs cannot be made is retried when its lease ends, five times in all, then kept as failed with its error and never claimed again', async () => {
  const { db } = app.services.deps;
  const [trigger] = await db.insert(actionTriggers).values({ eventId: 0, repoId: 0, actorId: 0, event: 'push', ref: 'refs/heads/main', sha: '0'.repeat(40) }).returning();
  let calls = 0;
  const failing = { processTrigger: async () => { calls++; throw new Error('the repository is broken'); } } as unknown as ActionService;
  const worker = new ActionTriggerWorker(app.services.deps, failing);
  for (let i = 1; i <= maxTriggerAttempts; i++) {
    assert.is(await worker.runOnce(), 1);
    // Leased: not claimed again before its lease ends.
    assert.is(await worker.runOnce(), 0);
    const [row] = await db.select().from(actionTriggers).where(eq(actionTriggers.id, trigger!.id));
    assert.is(row!.attempts, i);
    assert.is(row!.failedAt !== null, i === maxTriggerAttempts, `failed_at after attempt ${i}`);
    await db.update(actionTriggers).set({ leaseUntil: new Date(Date.now() - 1000) }).where(eq(actionTriggers.id, trigger!.id));
  }
  assert.is(await worker.runOnce(), 0);
  assert.is(calls, maxTriggerAttempts);
  const [kept] = await db.select().from(actionTriggers).where(eq(actionTriggers.id, trigger!.id));
  assert.is(kept!.error, 'the repository is broken');
  assert.is(maxTriggerAttempts, 5);
});

test.run();
