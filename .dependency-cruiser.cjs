// The import rules of src/ (docs/architecture.md, "Layers and what each may import"), checked by
// tests/unit/imports.test.ts: no circle anywhere, and no import from a lower layer up into a higher one.
// Type-only imports count: a circle of types is still a circle for the reader.
const entry = '^src/(main|cli|app)\\.ts$';
const edges = '^src/(api|web|transport|jobs)/';
const present = '^src/present/';
const convert = '^src/convert/';
const services = '^src/services/';
const foundations = '^src/(permissions|git|storage|db|templates)/';
const leaves = '^src/(config|log|metrics|paths|version)\\.ts$';

const above = {
  edges: [entry],
  present: [entry, edges],
  convert: [entry, edges, present],
  services: [entry, edges, present, convert],
  foundations: [entry, edges, present, convert, services],
  leaves: [entry, edges, present, convert, services, foundations],
};

const upward = (name, from, to) => ({
  name: `no-upward-${name}`,
  comment: `${name} is below ${to.join(', ')}: see docs/architecture.md`,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'src/ has no import circle: move the shared piece down (docs/architecture.md)', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
    upward('edges', edges, above.edges),
    upward('present', present, above.present),
    upward('convert', convert, above.convert),
    upward('services', services, above.services),
    upward('foundations', foundations, above.foundations),
    upward('leaves', leaves, above.leaves),
    // The edges stand side by side and import each other's code in one direction only: the pages reuse
    // api's authentication, loading and errors.
    { name: 'no-edge-to-edge', comment: 'only src/web may import from another edge (src/api)', severity: 'error',
      from: { path: '^src/(api|transport|jobs)/' }, to: { path: '^src/(api|web|transport|jobs)/', pathNot: '^src/$1/' } },
    // The built-in runner is a client of the server, like act_runner: it talks to it only over the runner
    // protocol, git over HTTP and the artifact protocol, never through its services or database.
    { name: 'runner-is-a-client', comment: 'src/runner may import only itself and the leaf modules (docs/architecture.md)', severity: 'error',
      from: { path: '^src/runner/' }, to: { path: '^src/', pathNot: '^src/(runner/|config\\.ts$|log\\.ts$|version\\.ts$)' } },
    { name: 'only-entry-starts-the-runner', comment: 'only the entry points (main.ts, cli.ts) start the built-in runner', severity: 'error',
      from: { path: '^src/', pathNot: `${entry}|^src/runner/` }, to: { path: '^src/runner/' } },
    { name: 'no-web-to-edge', severity: 'error', from: { path: '^src/web/' }, to: { path: '^src/(transport|jobs)/' } },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|generated)/' },
    includeOnly: '^src/',
  },
};
