// The test command of `make mutate` (stryker.config.mjs), run by Stryker in its sandbox once per mutant:
// bundles the given test files once (the first, unmutated run; the mutants are all in the bundle and the
// one under test is chosen by Stryker's environment variable), then runs them, one process each (the
// unit and operation files together in one), stopping at the first failure. Exits non-zero when a test
// failed, which is what kills the mutant. Plain JavaScript: it starts once per mutant, without tsx.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const files = process.argv.slice(2);
const buildDir = '.mutate-build';
if (!existsSync(join(buildDir, '.done'))) {
  const tmp = `${buildDir}-${process.pid}`;
  await build({
    entryPoints: [...files, 'scripts/test-batch.ts'], outdir: tmp, outbase: '.', bundle: true, splitting: true, format: 'esm',
    platform: 'node', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'warning',
  });
  spawnSync('touch', [join(tmp, '.done')]);
  // Another worker may have built it meanwhile: the first one in place wins.
  if (existsSync(join(buildDir, '.done'))) rmSync(tmp, { recursive: true, force: true });
  else renameSync(tmp, buildDir);
}
const js = (f) => join(buildDir, f.replace(/\.ts$/, '.js'));
const batchable = files.filter((f) => /^tests\/(operations|unit)\//.test(f));
const jobs = [...(batchable.length ? [[js('scripts/test-batch.ts'), ...batchable.map(js)]] : []), ...files.filter((f) => !batchable.includes(f)).map((f) => [js(f)])];
for (const args of jobs) {
  const r = spawnSync(process.execPath, ['--enable-source-maps', ...args], { stdio: 'inherit', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0) process.exit(1);
}
