// Creating a repository: name and template rules, the bare git repository (with an initial commit
// when asked), and its rows — so that a failure leaves neither a folder nor a row behind.
import { rmSync } from 'node:fs';
import { and, count, eq, sql } from 'drizzle-orm';
import { collaborations, labels, repoWatches, repositories, users, type ObjectFormat, type RepoRow, type TrustModel, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { commitFiles } from '../../git/commit.js';
import { initBare } from '../../git/init.js';
import { folderSize } from '../../git/size.js';
import { beginCreate, type JournalStore } from '../../git/folderMoves.js';
import { repoDir } from '../../git/paths.js';
import * as templates from '../../templates/index.js';
import type { AccessService } from './access.js';
import type { Db } from '../../db/client.js';
import type { ServiceDeps } from '../context.js';
import { signatureOf } from '../identity.js';
import { Conflict, Invalid, isUniqueViolation } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import { checkRepoName, isValidRefName } from '../names.js';
import type { CommitSigning } from '../keys/commitSigning.js';

export interface CreateRepoInput {
  name: string;
  description?: string;
  private?: boolean;
  template?: boolean;
  autoInit?: boolean;
  defaultBranch?: string;
  gitignores?: string;
  license?: string;
  readme?: string;
  issueLabels?: string;
  trustModel?: TrustModel | '';
  objectFormat?: ObjectFormat | '';
}

/**
 * What a creation from a template (services/repos/generate.ts) adds to a plain one: the git content,
 * more columns of the row, and more rows in the creation's transaction.
 */
export interface CreateExtras {
  /** Fills the new bare repository in its scratch folder, before any row exists; answers whether it made a commit. */
  fill?: (scratch: string) => Promise<boolean>;
  /** Columns of the new row besides the plain ones. */
  row?: Pick<Partial<RepoRow>, 'templateId' | 'avatar' | 'topics'>;
  /** More rows for the new repository, written in its creation's transaction. */
  inTx?: (tx: Db, repo: RepoRow) => Promise<void>;
}

function pick(names: readonly string[], wanted: string, what: string): string {
  const found = templates.findTemplate(names, wanted);
  if (!found) throw new Invalid(`${what} template does not exist [${wanted}], available templates: [${names.join(', ')}]`);
  return found;
}

interface Plan {
  defaultBranch: string;
  objectFormat: ObjectFormat;
  files: Array<{ path: string; content: string }>;
  labelSet?: string;
  licenses: string[];
}

/** Checks every input before anything is written; unknown templates are 422 naming the available ones. */
function plan(owner: UserRow, input: CreateRepoInput): Plan {
  checkRepoName(input.name);
  const defaultBranch = input.defaultBranch?.trim() || 'main';
  if (!isValidRefName(defaultBranch)) throw new Invalid(`[default_branch]: invalid branch name "${defaultBranch}"`);
  const gitignores = (input.gitignores ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((g) => pick(templates.gitignoreNames, g, 'gitignore'));
  const licenseName = input.license?.trim() ? pick(templates.licenseNames, input.license, 'license') : undefined;
  const readmeName = input.readme?.trim() ? pick(templates.readmeNames, input.readme, 'readme') : 'Default';
  const labelSet = input.issueLabels?.trim() ? pick(templates.labelSetNames, input.issueLabels, 'label set') : undefined;
  const files: Plan['files'] = [];
  if (input.autoInit) {
    void readmeName; // one README template today: "Default"
    files.push({ path: 'README.md', content: templates.readme(input.name, input.description ?? '') });
    if (gitignores.length) files.push({ path: '.gitignore', content: templates.gitignoreFile(gitignores) });
    if (licenseName) files.push({ path: 'LICENSE', content: templates.license(licenseName, owner.fullName || owner.name) });
  }
  return {
    defaultBranch,
    objectFormat: input.objectFormat || 'sha1',
    files,
    labelSet,
    licenses: input.autoInit && licenseName ? [licenseName] : [],
  };
}

export async function createRepository(
  deps: ServiceDeps,
  access: AccessService,
  signing: CommitSigning,
  owner: UserRow,
  actor: UserRow,
  input: CreateRepoInput,
  journals: JournalStore,
  extras: CreateExtras = {},
): Promise<RepoRow> {
  const { db, config } = deps;
  const p = plan(owner, input);
  const lowerName = input.name.toLowerCase();
  const conflict = () => new Conflict('The repository with the same name already exists.');
  const [taken] = await db
    .select({ id: repositories.id })
    .from(repositories)
    .where(and(eq(repositories.ownerId, owner.id), eq(repositories.lowerName, lowerName)));
  if (taken) throw conflict();
  // The owner's limit (max_repo_creation; -1: MAX_CREATION_LIMIT), which site administrators are not held to.
  const limit = owner.maxRepoCreation >= 0 ? owner.maxRepoCreation : config.maxCreationLimit;
  const checkLimit = async (q: Db) => {
    if (actor.isAdmin || limit < 0) return;
    const [n] = await q.select({ n: count() }).from(repositories).where(eq(repositories.ownerId, owner.id));
    if ((n?.n ?? 0) >= limit) throw new Invalid(`You have already reached your limit of ${limit} repositories.`);
  };
  await checkLimit(db);

  // Git first, in a scratch folder: nothing is visible under the real path until the row exists. The
  // move into place is journalled (git/folderMoves.ts): a crash before the commit leaves a folder that
  // a live process removes once the journal's lease lapses.
  const final = repoDir(config.dataDir, owner.name, input.name);
  const journal = await beginCreate(config.dataDir, owner.id, lowerName, final, journals);
  const { scratch } = journal;
  try {
    await initBare(scratch, { objectFormat: p.objectFormat, defaultBranch: p.defaultBranch });
    if (p.files.length) {
      const who = signatureOf(actor, config);
      const sign = await signing.signer('initialCommit', { actor, dir: scratch });
      await commitFiles(scratch, { branch: p.defaultBranch, files: p.files, message: 'Initial commit\n', author: who, sign });
    }
    const filled = extras.fill ? await extras.fill(scratch) : false;
    const hasCommit = p.files.length > 0 || filled;
    // The size is right from the start, as Gitea's (it counts the folder after init): read here, outside
    // the transaction; the move into place keeps every file, and a new repository has no LFS objects.
    const sizeBytes = await folderSize(scratch);
    const repo = await withTx(db, async (tx) => {
      if (!actor.isAdmin && limit >= 0) {
        // Creates for one owner queue here, so that two racing ones cannot both take the last place.
        await tx.execute(sql`select ${users.id} from ${users} where ${users.id} = ${owner.id} for no key update`);
        await checkLimit(tx);
      }
      const [row] = await tx
        .insert(repositories)
        .values({
          ownerId: owner.id,
          name: input.name,
          // Its creator watches it (inserted below).
          numWatches: 1,
          lowerName,
          description: input.description ?? '',
          isPrivate: input.private ?? false,
          isTemplate: input.template ?? false,
          isEmpty: !hasCommit,
          defaultBranch: p.defaultBranch,
          objectFormat: p.objectFormat,
          trustModel: input.trustModel || 'default',
          numBranches: hasCommit ? 1 : 0,
          licenses: p.licenses,
          sizeBytes,
          ...extras.row,
        })
        .returning();
      if (p.labelSet) {
        await tx.insert(labels).values(
          templates.labelSet(p.labelSet).map((l) => ({
            repoId: row!.id, name: l.name, color: l.color, description: l.description, exclusive: l.exclusive ?? false,
          })),
        );
      }
      if (owner.type === 'Organization') {
        // The creator becomes an admin collaborator unless a team already makes them one.
        const perm = await access.repoPermissionIn(tx, row!, owner, { ...actor, isAdmin: false });
        if (perm.mode !== 'admin' && perm.mode !== 'owner') {
          await tx.insert(collaborations).values({ repoId: row!.id, userId: actor.id, accessMode: 'admin' });
        }
      }
      await tx.insert(repoWatches).values({ userId: actor.id, repoId: row!.id });
      if (extras.inTx) await extras.inTx(tx, row!);
      await recordEvent(deps, tx, {
        type: 'repository', action: 'created', repoName: row!.name, ...inRepo(row!, actor.id), activity: { opType: 'create_repo' },
      });
      // The row holds the name (a concurrent creation waits on its unique key), so the move into
      // place cannot race; a leftover folder without a row is stale and goes.
      await journal.place(tx);
      return row!;
    });
    await journal.committed();
    return repo;
  } catch (err) {
    await journal.abandon();
    if (isUniqueViolation(err)) throw conflict();
    throw err;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
