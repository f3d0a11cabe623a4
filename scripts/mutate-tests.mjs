// The test command of `make mutate` (stryker.config.mjs), run by Stryker in its sandbox once per mutant:
// bundles the given test files once (the first, unmutated run; the mutants are all in the bundle and the
// one under test is chosen by Stryker's environment variable), then runs them (the unit files
// first), stopping at the first failure. Exits non-zero when a test
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
// The pure unit files first (milliseconds: most mutants die there), then the operation files in one
// process, then each other file in its own.
const batch = (list) => (list.length ? [[js('scripts/test-batch.ts'), ...list.map(js)]] : []);
const unit = files.filter((f) => f.startsWith('tests/unit/'));
const operations = files.filter((f) => f.startsWith('tests/operations/'));
const jobs = [...batch(unit), ...batch(operations), ...files.filter((f) => !unit.includes(f) && !operations.includes(f)).map((f) => [js(f)])];
for (const args of jobs) {
  const r = spawnSync(process.execPath, ['--enable-source-maps', ...args], { stdio: 'inherit', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0) process.exit(1);
}
