// `make install` builds what production runs: src/ and its libraries bundled into dist/main.js (no
// TypeScript compiled and no module tree resolved at start) and the spec as JSON (no YAML parsed at start).
// Tests run src/ through tsx, except the ones that start real processes: those run this bundle.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { compiledSpecPath, specPath } from '../src/api/spec.js';
import { fromRoot } from '../src/paths.js';

mkdirSync(fromRoot('dist'), { recursive: true });
// Chunks of an earlier build (their names are hashes of their contents).
for (const name of readdirSync(fromRoot('dist'))) if (name.startsWith('chunk-')) rmSync(fromRoot('dist', name));
writeFileSync(compiledSpecPath, JSON.stringify(parse(readFileSync(specPath, 'utf8'))));
await build({
  entryPoints: [fromRoot('src', 'main.ts'), fromRoot('src', 'cli.ts')],
  outdir: fromRoot('dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Modules the server imports on first use (`await import(...)`: the request validator, the OAuth2
  // provider, the Actions runner protocol, ssh, the built-in runner) go into chunks of their own beside
  // main.js, loaded (with the libraries they import) only then: one bundle held every library's code and
  // loaded the external ones at start (#41).
  splitting: true,
  chunkNames: 'chunk-[hash]',
  target: 'node20',
  sourcemap: true,
  // Libraries that find files beside their own modules (PGlite's wasm, dugite's git, editorconfig's wasm, pino's workers,
  // ssh2's optional native bindings, swagger-ui-dist's pages, pino-pretty loaded by name in pino's worker) stay in node_modules, and so do the libraries the server loads only
  // when first needed (ssh2, sshpk, openpgp; Connect and protobuf for Actions runners); everything else is
  // one file.
  external: ['@electric-sql/pglite', 'dugite', 'editorconfig', 'linguist-js', 'pino', 'pino-pretty', 'swagger-ui-dist', 'ssh2', 'sshpk', 'openpgp', '@connectrpc/connect', '@connectrpc/connect-node', '@bufbuild/protobuf'],
  // Bundled CommonJS libraries call require().
  banner: { js: "import { createRequire as __anvilRequire } from 'node:module'; const require = __anvilRequire(import.meta.url);" },
  logLevel: 'warning',
  charset: 'ascii',
});

// V8 keeps a script's source in memory for the process's life, as one-byte (Latin-1) text only if every
// character fits: a single `’` in a library's comment made the 9 MB bundle a two-byte string of 18 MB
// (heap snapshot of the idle server, #41). esbuild already writes strings and identifiers in ASCII; what
// it leaves (comments, regular expression literals) is escaped here: `\uXXXX` means the same character
// in a regular expression and is inert in a comment. The lines keep their count (the source map holds).
for (const name of readdirSync(fromRoot('dist')).filter((n) => n.endsWith('.js'))) {
  const file = fromRoot('dist', name);
  const text = readFileSync(file, 'utf8');
  const latin1 = text.replace(/[^\u0000-\u00ff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (latin1 !== text) writeFileSync(file, latin1);
}

// A CommonJS library reached only through `await import()` lands in a chunk that exports nothing but
// `default` (esbuild's splitting), so `const { parse } = await import('yaml')` finds no `parse` in the
// bundle although it works under tsx, where the tests run: the built-in runner failed that way in CI
// (2026-12-08). Such an import fails the build here; import the library statically, or take `.default`.
const js = readdirSync(fromRoot('dist')).filter((n) => n.endsWith('.js'));
const defaultOnly = new Set(js.filter((n) => n.startsWith('chunk-') && /^export default require_\w+\(\);$/m.test(readFileSync(fromRoot('dist', n), 'utf8'))));
const misuse: string[] = [];
for (const name of js) {
  for (const m of readFileSync(fromRoot('dist', name), 'utf8').matchAll(/\{([^{}]*)\}\s*=\s*await import\("\.\/(chunk-\w+\.js)"\)/g)) {
    const names = m[1]!.split(',').map((s) => s.trim().split(':')[0]!.trim()).filter(Boolean);
    if (defaultOnly.has(m[2]!) && names.some((n) => n !== 'default')) misuse.push(`${name}: { ${m[1]!.trim()} } = await import("./${m[2]}"), which exports only default`);
  }
}
if (misuse.length) throw new Error(`named imports from CommonJS chunks (undefined at run time):\n${misuse.join('\n')}`);
