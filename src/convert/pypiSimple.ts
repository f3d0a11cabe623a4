// PyPI's simple repository API for one project, as pip reads it: PEP 503's HTML page (Gitea's) and
// PEP 691's JSON, each file linked with its sha256 and the version's Requires-Python.
import type { PackageRow } from '../db/schema/index.js';
import { normalizedPypiName, type PypiVersionFiles } from '../services/packages/pypi.js';

export const pypiJsonType = 'application/vnd.pypi.simple.v1+json';

interface SimpleFile {
  filename: string;
  url: string;
  sha256: string;
  requiresPython: string | undefined;
}

function files(registry: string, pkg: PackageRow, versions: PypiVersionFiles[]): SimpleFile[] {
  return versions.flatMap(({ version, files: fs }) => fs.map((f) => ({
    filename: f.file.name,
    url: `${registry}/files/${encodeURIComponent(pkg.name)}/${encodeURIComponent(version.version)}/${encodeURIComponent(f.file.name)}`,
    sha256: f.blob.sha256,
    requiresPython: typeof version.metadata.requires_python === 'string' && version.metadata.requires_python ? version.metadata.requires_python : undefined,
  })));
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function toPypiSimpleHtml(registry: string, pkg: PackageRow, versions: PypiVersionFiles[]): string {
  const links = files(registry, pkg, versions).map((f) =>
    `    <a href="${escape(`${f.url}#sha256=${f.sha256}`)}"${f.requiresPython ? ` data-requires-python="${escape(f.requiresPython)}"` : ''}>${escape(f.filename)}</a><br/>`);
  return [
    '<!DOCTYPE html>', '<html>', '  <head>', '    <meta name="pypi:repository-version" content="1.0">', `    <title>Links for ${escape(pkg.name)}</title>`, '  </head>', '  <body>',
    `    <h1>Links for ${escape(pkg.name)}</h1>`, ...links, '  </body>', '</html>', '',
  ].join('\n');
}

export function toPypiSimpleJson(registry: string, pkg: PackageRow, versions: PypiVersionFiles[]): Record<string, unknown> {
  return {
    meta: { 'api-version': '1.0' },
    name: normalizedPypiName(pkg.name),
    files: files(registry, pkg, versions).map((f) => ({
      filename: f.filename, url: f.url, hashes: { sha256: f.sha256 }, ...(f.requiresPython ? { 'requires-python': f.requiresPython } : {}),
    })),
  };
}
