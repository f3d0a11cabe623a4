// Files anvil reads at run time (the spec, migrations, templates, package.json), found from the project
// root so the same code runs from src/ (tsx) and from the compiled bundle in dist/.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'spec'))) return dir;
    if (dirname(dir) === dir) throw new Error(`anvil's project root not found above ${from}`);
  }
}

export const projectRoot = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the project, e.g. fromRoot('spec', 'openapi.yaml'). */
export const fromRoot = (...parts: string[]): string => join(projectRoot, ...parts);
