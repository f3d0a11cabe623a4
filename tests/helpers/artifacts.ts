// Actions artifacts written straight into storage and the table (the upload path has its own tests in
// tests/integration/artifactProtocol.test.ts and builtinRunner.test.ts): for the API's operations.
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { actionArtifacts, type ActionArtifactRow, type ArtifactState } from '../../src/db/schema/index.js';
import { storeFor } from '../../src/storage/index.js';
import type { TestApp } from './harness.js';
import type { SeededRun } from './actions.js';

/** An artifact of `seeded`'s run whose zip holds `bytes` (any bytes: the API does not open it). */
export async function seedArtifact(app: TestApp, seeded: SeededRun, opts: { name?: string; status?: ArtifactState; bytes?: Buffer; expiresAt?: Date } = {}): Promise<ActionArtifactRow> {
  const { db, config } = app.services.deps;
  const bytes = opts.bytes ?? Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'binary');
  const [row] = await db
    .insert(actionArtifacts)
    .values({
      runId: seeded.run.id, repoId: seeded.run.repoId, ownerId: seeded.run.ownerId, jobId: seeded.jobs[0]?.id ?? 0, name: opts.name ?? 'dist',
      size: bytes.length, status: opts.status ?? 'upload_confirmed', expiresAt: opts.expiresAt ?? new Date(Date.now() + 86_400_000),
    })
    .returning();
  // Its key in the actions_artifacts storage (the local folder or the S3 server, as the app is set up).
  const key = `${seeded.run.id}/${row!.id}.zip`;
  await storeFor(config, 'actions_artifacts').put(key, Readable.from([bytes]));
  const [done] = await db.update(actionArtifacts).set({ storagePath: key }).where(eq(actionArtifacts.id, row!.id)).returning();
  return done!;
}
