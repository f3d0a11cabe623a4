// Repository templates shipped with anvil: the .gitignore sets Gitea ships, by Gitea's names (data from
// github/gitignore, CC0-1.0, at dcc0fc7: every `*.gitignore` of the tree by its base name, a later one of the
// same name winning and links resolved, as Gitea's build/generate-gitignores.go lays out options/gitignore),
// the standard texts of the SPDX licenses (from spdx-license-list), Gitea's Default README, and two label sets.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fromRoot } from '../paths.js';

const here = (p: string) => join(fromRoot('src', 'templates'), p);
const require = createRequire(import.meta.url);

export const gitignoreNames = readdirSync(here('./gitignore/')).filter((f) => f.endsWith('.gitignore')).map((f) => f.slice(0, -'.gitignore'.length)).sort();
/**
 * Every license of spdx-license-list, by SPDX identifier (Gitea ships SPDX's list too). The names come from
 * the list without texts (120 KB); the texts (5 MB of JSON, about 40 ms and 10 MB of memory at every start)
 * are loaded on the first request that needs one.
 */
export const licenseNames = Object.keys(require('spdx-license-list') as Record<string, unknown>).sort();
export const readmeNames = ['Default'];
export const labelSetNames = readdirSync(here('./labels/')).map((f) => f.replace(/\.json$/, '')).sort();

export function gitignore(name: string): string {
  return readFileSync(here(`./gitignore/${name}.gitignore`), 'utf8');
}

/** The license text with the year and copyright holder filled in, as Gitea does. */
export function license(name: string, holder: string, year = new Date().getUTCFullYear()): string {
  const text = licenseTemplate(name)!.text;
  return text
    .replace(/<year>|\[year\]|\{year\}|<yyyy>|\[yyyy\]|\{yyyy\}/g, String(year))
    .replace(/<copyright holders>|<owner>|\[owner\]|<name of author>|\[name of author\]|\[name of copyright owner\]|<fullname>|\[fullname\]/g, holder)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n*$/, '\n');
}

/** A license's name, URL and text with its placeholders left in, by exact SPDX identifier; undefined if unknown. */
export function licenseTemplate(id: string): { name: string; url: string; text: string } | undefined {
  const full = require('spdx-license-list/full') as Record<string, { name: string; url: string; licenseText: string }>;
  if (!Object.hasOwn(full, id)) return undefined;
  const l = full[id]!;
  return { name: l.name, url: l.url, text: l.licenseText };
}

/** `.gitignore` of the named templates, byte for byte as Gitea writes it: each under a `# ---> Name` line. */
export function gitignoreFile(names: string[]): string {
  return names.map((name) => `# ---> ${name}\n${gitignore(name)}\n`).join('');
}

/** Gitea's Default README (`# {Name}\n\n{Description}\n`), byte for byte, also without a description. */
export function readme(name: string, description: string): string {
  return `# ${name}\n\n${description}\n`;
}

export interface LabelTemplate {
  name: string;
  color: string;
  description: string;
  exclusive?: boolean;
}

export function labelSet(name: string): LabelTemplate[] {
  return JSON.parse(readFileSync(here(`./labels/${name}.json`), 'utf8')) as LabelTemplate[];
}

/** A template name, matched case-insensitively, or undefined. */
export function findTemplate(names: readonly string[], wanted: string): string | undefined {
  return names.find((n) => n.toLowerCase() === wanted.trim().toLowerCase());
}
