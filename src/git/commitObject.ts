// A commit object written by the server itself, in place of `git commit-tree` (diffpatch and file changes
// each started one): the object's text as commit-tree writes it, its SHA-1, and the loose object git
// would write for it (zlib-deflated `commit <size>\0<text>`, written to a temporary file in its fan-out
// folder and renamed into place, read-only). Objects are content-addressed: an object already there is
// the same object.
//
// Only the plain case is handled; anything else answers undefined and the caller runs commit-tree, which
// knows the rest: a SHA-256 repository, a name or e-mail address git would clean up (it trims "crud"
// such as spaces, dots, commas, quotes and angle brackets from the ends and drops `<`, `>` and newlines),
// a repository sharing its objects with a group (core.sharedRepository) or keeping them elsewhere, one
// that signs its commits (commit.gpgSign) or writes them in another encoding (i18n.commitEncoding). git
// runs with no global or system configuration (core.ts), so the repository's own is all there is.
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { rawTime, signatureEnv, type Signature } from './signature.js';
import { git } from './core.js';
import { readOptional } from './refFiles.js';

const sha1 = /^[0-9a-f]{40}$/;

/** A name or address git writes as given: no delimiter inside, nothing it trims at either end. */
const plainIdent = (s: string) => /^[\p{L}\p{N}](?:[^\n<>]*[\p{L}\p{N}])?$/u.test(s);

/** Whether the repository's configuration asks git for more than a plain loose object. */
function unusualObjects(dir: string): boolean {
  const config = readOptional(join(dir, 'config'));
  if (config === undefined) return true;
  return /sharedrepository|objectformat|gpgsign|commitencoding|^\s*\[\s*include/im.test(config) || existsSync(join(dir, 'objects', 'info', 'alternates'));
}

/** Makes the armored detached signature (OpenPGP or SSH) of a commit's text, as `gpg -bsa` or `ssh-keygen -Y sign -n git` would. */
export type CommitSigner = (payload: string) => Promise<string>;

export interface CommitObjectInput {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
  /** Signs the commit (the server's own key, services/keys/commitSigning.ts); absent: unsigned. */
  sign?: CommitSigner;
}

/**
 * The commit's text with its signature header, as `git commit -S` writes it: `gpgsig` (`gpgsig-sha256`
 * in a SHA-256 repository) last among the headers, each further line of the armor continued with a
 * leading space. What was signed is the text without that header, which is what verifiers take off.
 */
export function withSignature(text: string, signature: string): string {
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text.replace(/\n$/, '') : text.slice(0, end);
  const rest = end < 0 ? '\n' : text.slice(end);
  const name = /^tree [0-9a-f]{64}\n/.test(`${head}\n`) ? 'gpgsig-sha256' : 'gpgsig';
  const lines = signature.replace(/\n+$/, '').split('\n');
  return `${head}\n${name} ${lines.join('\n ')}${rest}`;
}

/** The commit's text, as `git commit-tree` writes it for these inputs (the message verbatim). */
export function commitText(c: CommitObjectInput): string {
  const ident = (s: Signature) => `${s.name} <${s.email}> ${rawTime(s.date)}`;
  return [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`), `author ${ident(c.author)}`, `committer ${ident(c.committer)}`, '', c.message].join('\n');
}

/** Whether this commit's text is commitText's and may be written in-process (see above). */
function plainCommit(dir: string, c: CommitObjectInput): boolean {
  if (![c.tree, ...c.parents].every((id) => sha1.test(id))) return false;
  if (![c.author.name, c.author.email, c.committer.name, c.committer.email].every(plainIdent)) return false;
  return !unusualObjects(dir);
}

/** Writes the commit and answers its id, or undefined when git must write it (see above). Unsigned: see writeCommit. */
export function writeCommitObject(dir: string, c: CommitObjectInput): string | undefined {
  if (!plainCommit(dir, c)) return undefined;
  return writeLooseCommit(dir, commitText(c));
}

/** The commit object of exactly `text`, written as a loose object of a plain SHA-1 repository; its id. */
function writeLooseCommit(dir: string, text: string): string {
  const body = Buffer.from(text, 'utf8');
  const raw = Buffer.concat([Buffer.from(`commit ${body.length}\0`), body]);
  const id = createHash('sha1').update(raw).digest('hex');
  const folder = join(dir, 'objects', id.slice(0, 2));
  const path = join(folder, id.slice(2));
  if (existsSync(path)) return id;
  mkdirSync(folder, { recursive: true });
  const tmp = join(folder, `tmp_obj_anvil_${process.pid}_${Math.random().toString(36).slice(2)}`);
  const fd = openSync(tmp, 'wx', 0o444);
  try {
    writeSync(fd, deflateSync(raw, { level: 1 }));
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(tmp, 0o444);
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
  return id;
}

/**
 * The commit written in-process when it can be (writeCommitObject), else by `git commit-tree`; its id.
 * Signed when `c.sign` is given: the text commit-tree would write is signed and the signed object written.
 */
export async function writeCommit(dir: string, c: CommitObjectInput): Promise<string> {
  if (c.sign && plainCommit(dir, c)) return writeSignedText(dir, commitText(c), c.sign);
  const written = c.sign ? undefined : writeCommitObject(dir, c);
  if (written) return written;
  const { stdout } = await git(dir, ['commit-tree', c.tree, ...c.parents.flatMap((p) => ['-p', p]), '-F', '-'], {
    stdin: c.message,
    env: signatureEnv(c.author, c.committer),
  });
  return c.sign ? signCommit(dir, stdout.trim(), c.sign) : stdout.trim();
}

/**
 * The commit `id` (one git wrote, unsigned) signed: the same text with its signature header, written as a
 * new object; its id. The unsigned one stays behind, unreferenced, for gc.
 */
export async function signCommit(dir: string, id: string, sign: CommitSigner): Promise<string> {
  const text = (await git(dir, ['cat-file', 'commit', id])).stdout;
  return writeSignedText(dir, text, sign);
}

async function writeSignedText(dir: string, text: string, sign: CommitSigner): Promise<string> {
  const signed = withSignature(text, await sign(text));
  if (/^tree [0-9a-f]{40}\n/.test(signed) && !unusualObjects(dir)) return writeLooseCommit(dir, signed);
  return (await git(dir, ['hash-object', '-t', 'commit', '-w', '--stdin'], { stdin: signed })).stdout.trim();
}
