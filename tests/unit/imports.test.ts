// The import graph of src/ (docs/architecture.md): no circle, type-only imports included, and no import
// from a lower layer into a higher one. dependency-cruiser reads the rules from .dependency-cruiser.cjs;
// a violation names the modules of the circle or the offending arrow.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<{ name: string } | string>;
}

test('src/ has no import circle and no upward import', async () => {
  const { stdout } = await promisify(execFile)(
    'node_modules/.bin/depcruise',
    ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { maxBuffer: 256 << 20 },
  ).catch((err: { stdout?: string; stderr?: string; message: string }) => {
    // depcruise exits non-zero when it finds violations; its JSON is still on stdout.
    if (err.stdout) return { stdout: err.stdout };
    throw new Error(`dependency-cruiser failed: ${err.stderr || err.message}`);
  });
  const { summary } = JSON.parse(stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  // The whole of src/ was read (not an empty selection that would pass by itself).
  assert.ok(summary.totalCruised > 400, `only ${summary.totalCruised} modules cruised`);
  const lines = summary.violations.map((v) =>
    v.cycle?.length
      ? `${v.rule.name}: ${v.from} → ${v.cycle.map((c) => (typeof c === 'string' ? c : c.name)).join(' → ')}`
      : `${v.rule.name}: ${v.from} → ${v.to}`,
  );
  assert.equal(lines, [], `import rules broken (docs/architecture.md):\n${lines.join('\n')}`);
});

test.run();
