// The report of a run as text (for people), JSON (for programs) or JUnit XML (for CI): per operation the
// runs, statuses and response times; per chain the laws checked; every finding with the curl commands
// that replay it and the seed.
import type { Finding, Report } from './engine.js';

export type Format = 'text' | 'json' | 'junit';

function findingText(f: Finding, i: number): string {
  const lines = [`finding ${i + 1} (${f.kind}): ${f.problem}`, `  replay: the requests below in order (set the shell variables they name), or: ${f.replay}`];
  for (const s of f.steps) {
    lines.push(`  # ${s.target}: ${s.operationId} as ${s.caller} → ${s.status || 'no answer'} in ${s.ms} ms`);
    lines.push(`  ${s.curl}`);
  }
  const last = f.steps.at(-1);
  if (last?.body) lines.push(`  last answer's body: ${last.body}`);
  return lines.join('\n');
}

export function formatText(r: Report): string {
  const lines = [`fuzz: ${r.targets.join(' vs ')}, seed ${r.seed}, ${r.seconds}s`];
  for (const op of r.operations) {
    const statuses = Object.entries(op.statuses).map(([s, n]) => `${s}: ${n}`).join(', ');
    lines.push(op.skipped ? `  ${op.operationId}: skipped, ${op.skipped}` : `  ${op.operationId}: ${op.runs} requests {${statuses}}, p50 ${op.ms.p50} ms, p95 ${op.ms.p95} ms, max ${op.ms.max} ms`);
  }
  for (const c of r.chains) lines.push(`  chain ${c.producer} → ${c.read} (by ${c.via}): ${c.runs} runs, ${c.created} created; laws: ${c.laws.join(', ')}`);
  lines.push(r.findings.length ? `${r.findings.length} finding(s):` : 'no findings');
  r.findings.forEach((f, i) => lines.push(findingText(f, i)));
  return `${lines.join('\n')}\n`;
}

const xml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
  // XML 1.0 has no place for most control characters (a NUL a request carried, say).
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function formatJunit(r: Report): string {
  const cases: string[] = [];
  const byOp = new Map<string, Finding[]>();
  for (const f of r.findings) byOp.set(f.operationId, [...(byOp.get(f.operationId) ?? []), f]);
  for (const op of r.operations) {
    const found = byOp.get(op.operationId) ?? [];
    byOp.delete(op.operationId);
    const seconds = ((op.ms.p50 * op.runs) / 1000).toFixed(3);
    const inner = op.skipped ? `<skipped message="${xml(op.skipped)}"/>` : found.map((f, i) => `<failure message="${xml(f.problem.split('\n')[0]!)}" type="${f.kind}">${xml(findingText(f, i))}</failure>`).join('');
    cases.push(`  <testcase classname="fuzz" name="${xml(`${op.operationId}: ${op.method} ${op.path}`)}" time="${seconds}">${inner}</testcase>`);
  }
  for (const [operationId, found] of byOp) {
    cases.push(`  <testcase classname="fuzz" name="${xml(operationId)}">${found.map((f, i) => `<failure message="${xml(f.problem.split('\n')[0]!)}" type="${f.kind}">${xml(findingText(f, i))}</failure>`).join('')}</testcase>`);
  }
  const failures = cases.filter((c) => c.includes('<failure')).length;
  const skipped = r.operations.filter((o) => o.skipped).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="fuzz (seed ${r.seed})" tests="${cases.length}" failures="${failures}" skipped="${skipped}" time="${r.seconds}">\n${cases.join('\n')}\n</testsuite>\n`;
}

export function formatReport(r: Report, format: Format): string {
  if (format === 'json') return `${JSON.stringify(r, null, 2)}\n`;
  if (format === 'junit') return formatJunit(r);
  return formatText(r);
}
