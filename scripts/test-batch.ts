// Runs several test files in one process (`make test` batches the small ones): the app's modules are
// loaded once instead of once per file. Each file keeps its own suite, hooks and app; uvu prints the file
// names as headers and one total at the end.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const g = globalThis as unknown as { UVU_DEFER: number; UVU_QUEUE: unknown[][]; UVU_INDEX: number };
g.UVU_DEFER = 1; // before uvu loads: test.run() queues instead of running
// The files share one PGlite engine, emptied between them (tests/helpers/harness.ts).
process.env.ANVIL_TEST_REUSE_PGLITE = '1';
const { exec } = await import('uvu');
const files = process.argv.slice(2);
for (const [i, file] of files.entries()) {
  g.UVU_QUEUE.push([file]);
  g.UVU_INDEX = i;
  await import(pathToFileURL(resolve(file)).href);
}
await exec();
// The shared PGlite engine stays open after the last file: leave with uvu's exit code.
process.exit();
