// `make mutate`: StrykerJS over the code that decides who may do what (stryker.config.mjs lists the
// groups and the tests each runs), niced, one group after the other (MUTATE_GROUPS=auth,protection to
// choose). The PGlite template the tests start from is written once for every mutant; reports go to
// .mutate/<group>/mutation.json. Prints the score of each file and the mutants that survived;
// docs/mutation.md explains each survivor that is left.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writePgliteTemplate } from '../tests/helpers/template.js';

const { groups } = (await import(resolve('stryker.config.mjs'))) as { groups: Record<string, unknown> };
const chosen = (process.env.MUTATE_GROUPS ?? Object.keys(groups).join(',')).split(',').filter(Boolean);
mkdirSync('.mutate', { recursive: true });
const template = resolve('.mutate', 'template.tar');
// Written aside and renamed: a run of another group may be reading the one in place.
await writePgliteTemplate(`${template}.${process.pid}`);
renameSync(`${template}.${process.pid}`, template);

interface Mutant { id: string; mutatorName: string; replacement?: string; status: string; location: { start: { line: number; column: number } } }
interface Report { files: Record<string, { source: string; mutants: Mutant[] }> }

let failed = false;
const summary: string[] = [];
for (const group of chosen) {
  console.log(`\nmutate: group ${group}`);
  const r = spawnSync('nice', ['-n', '10', process.execPath, 'node_modules/@stryker-mutator/core/bin/stryker.js', 'run'], {
    stdio: 'inherit', env: { ...process.env, MUTATE_GROUP: group, ANVIL_TEST_PGLITE_IMAGE: template },
  });
  if (r.status !== 0) {
    failed = true;
    continue;
  }
  const reportFile = join('.mutate', group, 'mutation.json');
  if (!existsSync(reportFile)) continue;
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const killed = mutants.filter((m) => m.status === 'Killed' || m.status === 'Timeout').length;
    const survived = mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage');
    const valid = killed + survived.length;
    summary.push(`| ${file} | ${mutants.length} | ${killed} | ${survived.length} | ${valid ? ((100 * killed) / valid).toFixed(1) : '-'} % |`);
    const lines = source.split('\n');
    for (const m of survived) {
      console.log(`survived ${file}:${m.location.start.line} ${m.mutatorName}: ${lines[m.location.start.line - 1]?.trim()}  →  ${m.replacement ?? ''}`);
    }
  }
}
console.log('\n| file | mutants | killed | survived | score |\n|---|---|---|---|---|');
for (const line of summary) console.log(line);
process.exit(failed ? 1 : 0);
