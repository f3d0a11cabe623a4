// The language of a file for code search's `language` filter, from its name (linguist's names for the
// common extensions); '' when unknown.
const byExtension: Record<string, string> = {
  c: 'C', h: 'C', cc: 'C++', cpp: 'C++', cxx: 'C++', hpp: 'C++', hh: 'C++', cs: 'C#', go: 'Go', rs: 'Rust',
  java: 'Java', kt: 'Kotlin', kts: 'Kotlin', scala: 'Scala', swift: 'Swift', m: 'Objective-C', mm: 'Objective-C++',
  js: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript', jsx: 'JavaScript', ts: 'TypeScript', mts: 'TypeScript',
  cts: 'TypeScript', tsx: 'TSX', py: 'Python', rb: 'Ruby', php: 'PHP', pl: 'Perl', pm: 'Perl', lua: 'Lua',
  sh: 'Shell', bash: 'Shell', zsh: 'Shell', ps1: 'PowerShell', sql: 'SQL', html: 'HTML', htm: 'HTML', css: 'CSS',
  scss: 'SCSS', less: 'Less', vue: 'Vue', svelte: 'Svelte', json: 'JSON', yaml: 'YAML', yml: 'YAML', toml: 'TOML',
  xml: 'XML', md: 'Markdown', markdown: 'Markdown', rst: 'reStructuredText', tex: 'TeX', r: 'R', jl: 'Julia',
  hs: 'Haskell', ml: 'OCaml', ex: 'Elixir', exs: 'Elixir', erl: 'Erlang', clj: 'Clojure', dart: 'Dart',
  zig: 'Zig', nim: 'Nim', proto: 'Protocol Buffer', tf: 'HCL', hcl: 'HCL', groovy: 'Groovy', gradle: 'Groovy',
  ini: 'INI', cfg: 'INI', txt: 'Text',
};
const byName: Record<string, string> = { dockerfile: 'Dockerfile', makefile: 'Makefile', 'cmakelists.txt': 'CMake', gemfile: 'Ruby' };

export function languageOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (byName[name]) return byName[name];
  const dot = name.lastIndexOf('.');
  return dot > 0 ? byExtension[name.slice(dot + 1)] ?? '' : '';
}
