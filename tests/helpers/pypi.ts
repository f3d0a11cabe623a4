// Shared setup of the PyPI tests: an sdist and a pure-Python wheel made on disk (with their core metadata,
// as twine reads it), and uploads as twine sends them (multipart, `:action=file_upload`) over HTTP.
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestApp } from './harness.js';

const run = promisify(execFile);

const builder = `
import base64, hashlib, io, sys, tarfile, zipfile
name, version, out, requires = sys.argv[1:5]
mod = name.replace('-', '_').lower()
meta = f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\nSummary: {name} for tests\\nAuthor: Tester\\nRequires-Python: {requires}\\n\\n"
wheel = f"{out}/{name.replace('-', '_')}-{version}-py3-none-any.whl"
dist = f"{name.replace('-', '_')}-{version}.dist-info"
files = {f"{mod}/__init__.py": f"VERSION = {version!r}\\n", f"{dist}/METADATA": meta, f"{dist}/WHEEL": "Wheel-Version: 1.0\\nGenerator: anvil-tests\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
record = []
with zipfile.ZipFile(wheel, 'w') as z:
    for path, text in files.items():
        data = text.encode()
        z.writestr(path, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    z.writestr(f"{dist}/RECORD", "\\n".join(record) + "\\n")
sdist = f"{out}/{name}-{version}.tar.gz"
with tarfile.open(sdist, 'w:gz') as t:
    for path, text in {f"{name}-{version}/PKG-INFO": meta, f"{name}-{version}/{mod}/__init__.py": files[f"{mod}/__init__.py"]}.items():
        data = text.encode()
        info = tarfile.TarInfo(path)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
print(wheel)
print(sdist)
`;

export interface Distributions {
  wheel: string;
  sdist: string;
}

/** Builds `name`'s wheel and sdist of `version` into a fresh directory. */
export async function buildDistributions(name: string, version: string, requiresPython = '>=3.7'): Promise<Distributions> {
  const out = mkdtempSync(join(tmpdir(), 'anvil-pypi-'));
  const { stdout } = await run('python3', ['-c', builder, name, version, out, requiresPython]);
  const [wheel, sdist] = stdout.trim().split('\n');
  return { wheel: wheel!, sdist: sdist! };
}

/** POSTs a file as twine does; `fields` replace or add to the ones computed from the file. */
export function uploadAsTwine(app: TestApp, auth: string | undefined, owner: string, file: { name: string; bytes: Buffer }, fields: Record<string, string>): Promise<Response> {
  const form = new FormData();
  const all: Record<string, string> = {
    ':action': 'file_upload', protocol_version: '1', metadata_version: '2.1', filetype: file.name.endsWith('.whl') ? 'bdist_wheel' : 'sdist', pyversion: 'source',
    sha256_digest: createHash('sha256').update(file.bytes).digest('hex'), md5_digest: createHash('md5').update(file.bytes).digest('hex'), ...fields,
  };
  for (const [k, v] of Object.entries(all)) form.append(k, v);
  form.append('content', new Blob([new Uint8Array(file.bytes)]), file.name);
  return fetch(`${app.url}/api/packages/${owner}/pypi`, { method: 'POST', headers: auth ? { Authorization: auth } : {}, body: form });
}

export const fileOf = (path: string) => ({ name: path.split('/').pop()!, bytes: readFileSync(path) });
