import { readFileSync } from 'node:fs';
import { fromRoot } from './paths.js';

const pkg = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version: string };

/** Gitea's version first, so clients that gate features on it (runners ≥ 1.25, runs ≥ 1.26) enable them. */
export const serverVersion = `1.26.0+anvil-${pkg.version}`;
