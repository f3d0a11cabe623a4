// The server's own signing key (Gitea's `[repository.signing]`, docs/signing.md): the commits anvil writes
// itself (a repository's first commit, file changes through the API, wiki pages, pull-request merges) are
// signed with it when their kind's rules allow, and its public half is served at /signing-key.gpg
// (OpenPGP) or /signing-key.pub (SSH). With no key configured (the default) nothing changes: no commit is
// signed and both answer 404.
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { SigningConfig, SigningRule } from '../../config.js';
import { gpgKeys, twoFactors, type UserRow } from '../../db/schema/index.js';
import type { CommitSigner } from '../../git/commitObject.js';
import { git } from '../../git/core.js';
import { readCommit, type CommitSignature } from '../../git/objects.js';
import { NotFound } from '../errors.js';
import type { ServiceDeps } from '../context.js';
import { readSshPrivateKey, sshFingerprint, sshPublicKeyLine, sshSign, sshVerify, type SshSigningKey } from './sshsig.js';
import type { CommitVerifier } from './verification.js';

const pgp = () => import('openpgp');
type PrivateKey = Awaited<ReturnType<Awaited<ReturnType<typeof pgp>>['readPrivateKey']>>;

interface Identity {
  name: string;
  email: string;
}

type LoadedKey =
  | (Identity & { format: 'openpgp'; key: PrivateKey; publicKey: string; keyIds: Set<string> })
  | (Identity & { format: 'ssh'; key: SshSigningKey; publicKey: string; fingerprint: string });

/** What the instance key says about a signature: verified by it, or a bad signature naming it. */
export interface InstanceVerification {
  verified: boolean;
  reason: string;
  signer: Identity;
}

/**
 * The configured key, read once (lazily; `load` at start reports a bad file before the first request).
 * The file is read when the process starts: a changed key takes a restart.
 */
export class InstanceSigningKey {
  private loading: Promise<LoadedKey | undefined> | undefined;

  constructor(private readonly config: SigningConfig) {}

  load(): Promise<LoadedKey | undefined> {
    this.loading ??= this.read();
    return this.loading;
  }

  private async read(): Promise<LoadedKey | undefined> {
    const { keyFile, format, passphrase } = this.config;
    if (!keyFile) return undefined;
    let text: string;
    try {
      text = readFileSync(keyFile, 'utf8');
    } catch (err) {
      throw new Error(`SIGNING_KEY: cannot read ${keyFile}: ${(err as Error).message}`);
    }
    const found = text.includes('-----BEGIN OPENSSH PRIVATE KEY-----') ? 'ssh' : text.includes('-----BEGIN PGP PRIVATE KEY BLOCK-----') ? 'openpgp' : undefined;
    if (!found) throw new Error(`SIGNING_KEY: ${keyFile} holds neither an armored OpenPGP secret key nor an OpenSSH private key`);
    if (format && format !== found) throw new Error(`SIGNING_KEY: ${keyFile} holds an ${found} key, but SIGNING_FORMAT is ${format}`);
    if (found === 'ssh') {
      let key: SshSigningKey;
      try {
        key = readSshPrivateKey(text);
      } catch (err) {
        throw new Error(`SIGNING_KEY: ${keyFile}: ${(err as Error).message}`);
      }
      return {
        format: 'ssh', key, publicKey: `${sshPublicKeyLine(key)}\n`, fingerprint: sshFingerprint(key),
        name: this.config.name ?? '', email: this.config.email ?? '',
      };
    }
    const openpgp = await pgp();
    let key: PrivateKey;
    try {
      key = await openpgp.readPrivateKey({ armoredKey: text });
      if (!key.isDecrypted()) {
        if (!passphrase) throw new Error('the key is protected by a passphrase: set SIGNING_KEY_PASSPHRASE');
        key = await openpgp.decryptKey({ privateKey: key, passphrase });
      }
      await key.getSigningKey();
    } catch (err) {
      throw new Error(`SIGNING_KEY: ${keyFile}: ${(err as Error).message}`);
    }
    const user = key.users.find((u) => u.userID)?.userID;
    return {
      format: 'openpgp', key, publicKey: key.toPublic().armor(),
      keyIds: new Set(key.getKeyIDs().map((id) => id.toHex().toUpperCase())),
      name: this.config.name ?? user?.name ?? '', email: this.config.email ?? user?.email ?? '',
    };
  }

  /** The detached armored signature of a commit's text. */
  async sign(payload: string): Promise<string> {
    const k = await this.load();
    if (!k) throw new Error('no signing key');
    if (k.format === 'ssh') return sshSign(k.key, Buffer.from(payload, 'utf8'));
    const openpgp = await pgp();
    const message = await openpgp.createMessage({ binary: Buffer.from(payload, 'utf8') });
    return (await openpgp.sign({ message, signingKeys: k.key, detached: true, format: 'armored' })) as string;
  }

  /** Undefined when the signature is not the instance key's; else whether it verifies (Gitea's default-key check). */
  async verify(sig: CommitSignature): Promise<InstanceVerification | undefined> {
    const k = await this.load();
    if (!k) return undefined;
    const signer = { name: k.name, email: k.email };
    if (k.format === 'ssh') {
      const ok = sshVerify(k.key, sig.signature, Buffer.from(sig.payload, 'utf8'));
      if (ok === undefined) return undefined;
      return ok ? { verified: true, reason: `${k.name} / ${k.fingerprint}`, signer } : { verified: false, reason: 'gpg.error.probable_bad_signature', signer };
    }
    if (!sig.signature.includes('BEGIN PGP SIGNATURE')) return undefined;
    const openpgp = await pgp();
    try {
      const signature = await openpgp.readSignature({ armoredSignature: sig.signature });
      const ids = signature.getSigningKeyIDs().map((id) => id.toHex().toUpperCase());
      const id = ids.find((i) => k.keyIds.has(i));
      if (!id) return undefined;
      const message = await openpgp.createMessage({ binary: Buffer.from(sig.payload, 'utf8') });
      try {
        const { signatures } = await openpgp.verify({ message, signature, verificationKeys: k.key.toPublic(), expectSigned: true, format: 'binary' });
        await signatures[0]!.verified;
        return { verified: true, reason: `${k.name} / ${id}`, signer };
      } catch {
        return { verified: false, reason: 'gpg.error.probable_bad_signature', signer };
      }
    } catch {
      return undefined;
    }
  }
}

/** The kinds of commit anvil writes, each with its rules (Gitea's INITIAL_COMMIT, CRUD_ACTIONS, WIKI, MERGES). */
export type SigningKind = 'initialCommit' | 'crudActions' | 'wiki' | 'merges';

/** What the rules look at: who acts, and the commits around the one to write. */
export interface SigningFacts {
  actor: UserRow;
  dir: string;
  /** crudActions, wiki: the commit the new one follows (parentsigned); none: the rule fails. */
  parent?: string;
  /** merges: the base and head branches' tips (basesigned, headsigned, commitssigned). */
  base?: string;
  head?: string;
  /** merges: whether the pull request has an approval that counts on a protected base branch (approved). */
  approved?: () => Promise<boolean>;
}

/** Which rules each kind reads; the others in its list are passed over, as Gitea does. */
const applies: Record<SigningKind, SigningRule[]> = {
  initialCommit: ['pubkey', 'twofa'],
  crudActions: ['pubkey', 'twofa', 'parentsigned'],
  wiki: ['pubkey', 'twofa', 'parentsigned'],
  merges: ['pubkey', 'twofa', 'approved', 'basesigned', 'headsigned', 'commitssigned'],
};

export class CommitSigning {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly key: InstanceSigningKey,
    private readonly verifier: CommitVerifier,
  ) {}

  /**
   * The instance's public key in `format` (`GET /signing-key.gpg`, `/signing-key.pub`, and the same per
   * repository: anvil has one key for all). 404 `no signing key`, or `signing key format is …` for the other format.
   */
  async publicKey(format: 'openpgp' | 'ssh'): Promise<string> {
    const k = await this.key.load();
    if (!k) throw new NotFound('no signing key');
    if (k.format !== format) throw new NotFound(`signing key format is ${k.format}`);
    return k.publicKey;
  }

  /** The configured key's format and id (fingerprint), for the start-up log; undefined without one. Throws on a bad key file. */
  async describe(): Promise<{ format: string; key: string; name: string; email: string } | undefined> {
    const k = await this.key.load();
    if (!k) return undefined;
    return { format: k.format, key: k.format === 'ssh' ? k.fingerprint : k.key.getFingerprint().toUpperCase(), name: k.name, email: k.email };
  }

  /** The signer for a commit of `kind` when a key is configured and every rule of its kind holds; else undefined (unsigned). */
  async signer(kind: SigningKind, facts: SigningFacts): Promise<CommitSigner | undefined> {
    if (!(await this.key.load())) return undefined;
    for (const rule of this.deps.config.signing[kind]) {
      if (rule === 'never') return undefined;
      if (rule === 'always') break;
      if (!applies[kind].includes(rule)) continue;
      if (!(await this.holds(rule, facts))) return undefined;
    }
    return (payload) => this.key.sign(payload);
  }

  private async holds(rule: SigningRule, f: SigningFacts): Promise<boolean> {
    const { db } = this.deps;
    switch (rule) {
      case 'pubkey':
        return (await db.select({ id: gpgKeys.id }).from(gpgKeys).where(eq(gpgKeys.ownerId, f.actor.id)).limit(1)).length > 0;
      case 'twofa':
        return (await db.select({ id: twoFactors.userId }).from(twoFactors).where(eq(twoFactors.userId, f.actor.id)).limit(1)).length > 0;
      case 'parentsigned':
        return f.parent !== undefined && this.verified(f.dir, [f.parent]);
      case 'basesigned':
        return f.base !== undefined && this.verified(f.dir, [f.base]);
      case 'headsigned':
        return f.head !== undefined && this.verified(f.dir, [f.head]);
      case 'commitssigned': {
        if (f.head === undefined || f.base === undefined) return false;
        const ids = (await git(f.dir, ['rev-list', `${f.base}..${f.head}`])).stdout.split('\n').filter(Boolean);
        return this.verified(f.dir, [f.head, ...ids]);
      }
      case 'approved':
        return f.approved ? f.approved() : false;
      default:
        return true;
    }
  }

  /** Whether every one of `ids` is a commit anvil reports as verified. */
  private async verified(dir: string, ids: string[]): Promise<boolean> {
    const commits = await Promise.all([...new Set(ids)].map((id) => readCommit(dir, id)));
    const out = await this.verifier.verify(dir, commits.map((c) => ({ id: c.id, committer: c.committer })));
    return commits.every((c) => out.get(c.id)?.verified === true);
  }
}
