// Editing a repository's settings: Gitea's EditRepoOption rules, a rename that moves the folders, and
// a default-branch change that moves HEAD — git first, then the row, and HEAD back if the row fails.
import { existsSync, renameSync } from 'node:fs';
import { and, eq, not } from 'drizzle-orm';
import { pullMirrors, repositories, type ExternalTrackerConfig, type PullMirrorRow, type RepoRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import { listBranches, setHead } from '../../git/refs.js';
import { repoDir, wikiDir } from '../../git/paths.js';
import { isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Forbidden, Invalid, RepoArchived, isUniqueViolation } from '../errors.js';
import { checkRepoName, isValidRefName } from '../names.js';
import type { UserRow } from '../../db/schema/index.js';
import type { LoadedRepo } from './loadedRepo.js';
import { mirrorIntervalSeconds } from './mirrorSettings.js';
import { markRepoStatsWanted } from './repoStats.js';
import { recordRepoRedirect } from './redirects.js';

export interface EditRepoInput {
  name?: string;
  description?: string;
  website?: string;
  private?: boolean;
  template?: boolean;
  archived?: boolean;
  defaultBranch?: string;
  units?: Partial<Pick<RepoRow, 'hasIssues' | 'hasWiki' | 'hasPullRequests' | 'hasProjects' | 'hasReleases' | 'hasPackages' | 'hasActions' | 'hasCode'>>;
  settings?: Partial<Pick<RepoRow,
    | 'projectsMode' | 'ignoreWhitespaceConflicts' | 'allowMergeCommits' | 'allowRebase' | 'allowRebaseExplicit'
    | 'allowSquashMerge' | 'allowFastForwardOnlyMerge' | 'allowManualMerge' | 'autodetectManualMerge'
    | 'allowRebaseUpdate' | 'defaultDeleteBranchAfterMerge' | 'defaultMergeStyle' | 'defaultAllowMaintainerEdit'
    | 'enableTimeTracker' | 'allowOnlyContributorsToTrackTime' | 'enableIssueDependencies'>>;
  /** Use this external tracker instead of the built-in one (undefined: unchanged). */
  externalTracker?: ExternalTrackerConfig;
  /** Use this external wiki instead of the built-in one (undefined: unchanged). */
  externalWikiUrl?: string;
  /** Mirror settings; only mirrors have them. */
  mirror?: { interval?: string; enablePrune?: boolean };
}

type Settings = NonNullable<EditRepoInput['settings']>;
const pullRequestSettings: ReadonlyArray<keyof Settings> = [
  'ignoreWhitespaceConflicts', 'allowMergeCommits', 'allowRebase', 'allowRebaseExplicit', 'allowSquashMerge',
  'allowFastForwardOnlyMerge', 'allowManualMerge', 'autodetectManualMerge', 'allowRebaseUpdate',
  'defaultDeleteBranchAfterMerge', 'defaultMergeStyle', 'defaultAllowMaintainerEdit',
];

const defined = (o: object | undefined) => !!o && Object.values(o).some((v) => v !== undefined);

/** Whether the body would change anything besides `archived`. */
function changesMoreThanArchiving(input: EditRepoInput): boolean {
  return Object.entries(input).some(([k, v]) => k !== 'archived' && (typeof v === 'object' && v !== null ? defined(v) : v !== undefined));
}

const isHttpUrl = (u: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(u).protocol);
  } catch {
    return false;
  }
};

export async function editRepository(deps: ServiceDeps, loaded: LoadedRepo, actor: UserRow, input: EditRepoInput): Promise<RepoRow> {
  const { repo, owner, perm } = loaded;
  if (!isRepoAdmin(perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
  // Un-archiving is always allowed (and the rest of its body applied); otherwise an archived repository changes nothing.
  if (repo.isArchived && input.archived !== false && changesMoreThanArchiving(input)) throw new RepoArchived();
  if (input.mirror && !repo.isMirror) throw new Invalid('repo is not a mirror, can not change mirror interval');
  // A mirror's interval (checked before anything is written) and pruning, kept in its pull_mirrors row.
  const mirrorSet: Partial<PullMirrorRow> = {};
  if (input.mirror?.interval !== undefined) {
    mirrorSet.intervalSeconds = mirrorIntervalSeconds(input.mirror.interval, deps);
    mirrorSet.nextSyncAt = mirrorSet.intervalSeconds ? new Date(Date.now() + mirrorSet.intervalSeconds * 1000) : null;
  }
  if (input.mirror?.enablePrune !== undefined) mirrorSet.enablePrune = input.mirror.enablePrune;
  if (input.externalTracker && !isHttpUrl(input.externalTracker.external_tracker_url)) throw new Invalid('External tracker URL not valid');
  if (input.externalWikiUrl !== undefined && !isHttpUrl(input.externalWikiUrl)) throw new Invalid('External wiki URL not valid');
  const rename = input.name !== undefined && input.name !== repo.name ? input.name : undefined;
  if (rename !== undefined) checkRepoName(rename);

  const settings: Settings = { ...input.settings };
  // As in Gitea, the pull-request settings apply only while pull requests are enabled.
  if (!(input.units?.hasPullRequests ?? repo.hasPullRequests)) for (const k of pullRequestSettings) delete settings[k];
  const set: Partial<RepoRow> = { ...input.units, ...settings, updatedAt: new Date() };
  if (input.description !== undefined) set.description = input.description;
  if (input.website !== undefined) set.website = input.website;
  if (input.private !== undefined) set.isPrivate = input.private;
  if (input.template !== undefined) set.isTemplate = input.template;
  // Enabling issues or the wiki without an external one means the built-in one (Gitea's rule).
  if (input.externalTracker !== undefined) set.externalTracker = input.externalTracker;
  else if (input.units?.hasIssues === true) set.externalTracker = null;
  if (input.externalWikiUrl !== undefined) set.externalWikiUrl = input.externalWikiUrl;
  else if (input.units?.hasWiki === true) set.externalWikiUrl = null;
  if (input.archived !== undefined && input.archived !== repo.isArchived) {
    set.isArchived = input.archived;
    set.archivedAt = input.archived ? new Date() : null;
  }
  if (rename !== undefined) {
    set.name = rename;
    set.lowerName = rename.toLowerCase();
  }

  const { db, config } = deps;
  const taken = async (tx: typeof db) =>
    rename !== undefined &&
    (await tx
      .select({ id: repositories.id })
      .from(repositories)
      .where(and(eq(repositories.ownerId, owner.id), eq(repositories.lowerName, rename.toLowerCase()), not(eq(repositories.id, repo.id)))))
      .length > 0;
  const conflict = () => new Conflict('The repository with the same name already exists.');
  if (await taken(db)) throw conflict();

  const dir = repoDir(config.dataDir, owner.name, repo.name);
  let headMoved = false;
  if (input.defaultBranch !== undefined && input.defaultBranch !== repo.defaultBranch) {
    if (!isValidRefName(input.defaultBranch)) throw new Invalid(`[default_branch]: invalid branch name "${input.defaultBranch}"`);
    // As in Gitea, a branch that does not exist is ignored unless the repository is empty.
    if (repo.isEmpty || (await listBranches(dir)).includes(input.defaultBranch)) {
      await setHead(dir, input.defaultBranch);
      headMoved = true;
      set.defaultBranch = input.defaultBranch;
    }
  }
  const to = rename !== undefined ? repoDir(config.dataDir, owner.name, rename) : dir;
  const wikiFrom = wikiDir(config.dataDir, owner.name, repo.name);
  const wikiTo = rename !== undefined ? wikiDir(config.dataDir, owner.name, rename) : wikiFrom;
  let moved = false;
  let wikiMoved = false;
  try {
    return await withTx(db, async (tx) => {
      if (await taken(tx)) throw conflict();
      const [row] = await tx.update(repositories).set(set).where(eq(repositories.id, repo.id)).returning();
      // Languages and licenses follow the new default branch (computed in the background).
      if (set.defaultBranch !== undefined) await markRepoStatsWanted(tx, repo.id);
      if (Object.keys(mirrorSet).length) await tx.update(pullMirrors).set(mirrorSet).where(eq(pullMirrors.repoId, repo.id));
      if (rename !== undefined) {
        // The old name keeps leading here (Gitea's NewRedirect); a change of case alone needs none.
        if (rename.toLowerCase() !== repo.lowerName) await recordRepoRedirect(tx, owner.id, repo.name, repo.id);
        await recordEvent(deps, tx, {
          type: 'repository', action: 'renamed', repoName: rename, oldName: repo.name, ...inRepo(row!, actor.id),
          activity: { opType: 'rename_repo', content: repo.name },
        });
      } else {
        await recordEvent(deps, tx, { type: 'repository', action: 'edited', repoName: repo.name, ...inRepo(row!, actor.id) });
      }
      if (to !== dir) {
        // The updated row holds the new name, so no one else can move into it meanwhile.
        renameSync(dir, to);
        moved = true;
        if (existsSync(wikiFrom)) {
          renameSync(wikiFrom, wikiTo);
          wikiMoved = true;
        }
      }
      return row!;
    });
  } catch (err) {
    if (wikiMoved) renameSync(wikiTo, wikiFrom);
    if (moved) renameSync(to, dir);
    if (headMoved) await setHead(dir, repo.defaultBranch);
    if (isUniqueViolation(err)) throw conflict();
    throw err;
  }
}
