// Commit verification as Gitea reports it: an unsigned commit is `gpg.error.not_signed_commit`; a signed
// one is verified when its committer is an account with an activated address equal to the committer's,
// and one of that account's GPG keys (or subkeys) whose id the signature names verifies it and lists that
// address. Otherwise: no account for the committer, no such key (`no_gpg_keys_found`), or a key with that
// id that does not verify it (`probable_bad_signature`, the suspicious case). A signature by the server's
// own key (commitSigning.ts; OpenPGP or SSH) is verified whoever the committer is, its signer the key's
// SIGNING_NAME and SIGNING_EMAIL, as Gitea reports commits signed with its default key.
import { and, eq, inArray } from 'drizzle-orm';
import { emailAddresses, gpgKeys, users, type GpgKeyRow, type UserRow } from '../../db/schema/index.js';
import { commitSignatures, type CommitSignature, type Person, type TagData } from '../../git/objects.js';
import type { ServiceDeps } from '../context.js';

/** The instance's own key as the verifier asks it (commitSigning.ts's InstanceSigningKey; declared here, so the two files import nothing of each other). */
export interface InstanceKeyCheck {
  /** undefined when the signature is not by the instance's key (or there is none). */
  verify(sig: CommitSignature): Promise<{ verified: boolean; reason: string; signer: { name: string; email: string } } | undefined>;
}

export interface CommitVerification {
  verified: boolean;
  reason: string;
  signature: string;
  payload: string;
  /** The account whose key verified it (for the server's own key: its name and e-mail). */
  signer: Pick<UserRow, 'name' | 'email'> | null;
}

const notSigned: CommitVerification = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '', signer: null };
const pgp = () => import('openpgp');

export class CommitVerifier {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly instanceKey: InstanceKeyCheck,
  ) {}

  /** The verification of each commit, by id (unsigned commits cost one batched object read, no crypto). */
  async verify(dir: string, commits: Array<{ id: string; committer: Person }>): Promise<Map<string, CommitVerification>> {
    const signatures = await commitSignatures(dir, commits.map((c) => c.id));
    const out = new Map<string, CommitVerification>();
    for (const c of commits) {
      const sig = signatures.get(c.id);
      out.set(c.id, sig ? await this.check(sig, c.committer) : notSigned);
    }
    return out;
  }

  /** An annotated tag's signature, checked against its tagger's account as a commit's against its committer's. */
  async verifyTag(tag: TagData): Promise<CommitVerification> {
    return tag.signed ? this.check(tag.signed, tag.tagger) : notSigned;
  }

  private async check(sig: CommitSignature, committer: Person): Promise<CommitVerification> {
    const base = { signature: sig.signature, payload: sig.payload, signer: null };
    const instance = await this.instanceKey.verify(sig);
    if (instance) return { ...base, verified: instance.verified, reason: instance.reason, signer: instance.verified ? instance.signer : null };
    const openpgp = await pgp();
    let signature: Awaited<ReturnType<typeof openpgp.readSignature>>;
    try {
      signature = await openpgp.readSignature({ armoredSignature: sig.signature });
    } catch {
      return { ...base, verified: false, reason: 'gpg.error.extract_sign' };
    }
    const { db } = this.deps;
    const email = committer.email.trim().toLowerCase();
    const [account] = email
      ? await db
          .select({ user: users })
          .from(emailAddresses)
          .innerJoin(users, eq(users.id, emailAddresses.userId))
          .where(and(eq(emailAddresses.lowerEmail, email), eq(emailAddresses.isActivated, true)))
      : [];
    if (!account) return { ...base, verified: false, reason: 'gpg.error.no_committer_account' };
    const ids = signature.getSigningKeyIDs().map((k) => k.toHex().toUpperCase());
    const found = ids.length ? await db.select().from(gpgKeys).where(and(inArray(gpgKeys.keyId, ids), eq(gpgKeys.ownerId, account.user.id))) : [];
    if (found.length === 0) return { ...base, verified: false, reason: 'gpg.error.no_gpg_keys_found' };
    const primaries = new Map<string, GpgKeyRow>();
    const primaryIds = [...new Set(found.map((k) => k.primaryKeyId || k.keyId))];
    for (const k of await db.select().from(gpgKeys).where(and(inArray(gpgKeys.keyId, primaryIds), eq(gpgKeys.ownerId, account.user.id)))) primaries.set(k.keyId, k);
    for (const k of found) {
      const primary = primaries.get(k.primaryKeyId || k.keyId);
      if (!primary?.content || !k.canSign) continue;
      if (!primary.emails.some((e) => e.toLowerCase() === email)) continue;
      try {
        const key = await openpgp.readKey({ armoredKey: primary.content });
        const message = await openpgp.createMessage({ binary: Buffer.from(sig.payload, 'utf8') });
        const { signatures } = await openpgp.verify({ message, signature, verificationKeys: key, expectSigned: true, format: 'binary' });
        await signatures[0]!.verified;
        return { ...base, verified: true, reason: `${account.user.name} / ${k.keyId}`, signer: account.user };
      } catch {
        // Not this key: the others are tried.
      }
    }
    return { ...base, verified: false, reason: 'gpg.error.probable_bad_signature' };
  }
}
