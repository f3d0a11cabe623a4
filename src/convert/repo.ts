import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { RepoRow, UserRow } from '../db/schema/index.js';
import { canRead, canWrite, isRepoAdmin, type RepoPermission } from '../permissions/repo.js';
import type { MirrorView } from '../services/repos/mirrors.js';
import type { TransferView } from '../services/repos/transfers.js';
import { goDuration, iso, isoOrNull } from './time.js';
import { toRepoTransfer } from './transfer.js';
import { toUser } from './user.js';

type ApiRepository = components['schemas']['Repository'];

/** The address git over SSH answers at: `ssh://git@<SSH_DOMAIN>[:<SSH_PORT>]/` (the port left out when 22). */
const sshBase = (config: Config) => `ssh://git@${config.ssh.domain}${config.ssh.port === 22 ? '' : `:${config.ssh.port}`}/`;

/** A repository path with each segment URL-encoded (slashes kept), as it appears in web and API URLs. */
export const escapePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export function repoUrls(config: Config, owner: string, name: string) {
  const path = `${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  return {
    html: `${config.rootUrl}${path}`,
    api: `${config.rootUrl}api/v1/repos/${path}`,
    clone: `${config.rootUrl}${path}.git`,
    ssh: `${sshBase(config)}${path}.git`,
  };
}

/** A fork's parent with the viewer's permission on it (see `toRepository`). */
export interface ParentView {
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
}

/**
 * The full Repository of the spec as `viewer` (whose permission is `perm`) sees it. `transfer` fills
 * `repo_transfer`; only single-repository answers look it up, lists leave it null (no per-item query).
 * `parent` fills `parent` for a fork whose parent the viewer may see (read for a whole list at once).
 * `mirror` fills a pull mirror's `mirror_interval`, `mirror_updated` and `mirror_last_sync_at` (Gitea's
 * `mirror_updated` is the last sync attempt, or the mirror's creation before any).
 */
export function toRepository(
  repo: RepoRow, owner: UserRow, perm: RepoPermission, viewer: UserRow | null, config: Config, transfer?: TransferView | null,
  parent?: ParentView | null, mirror?: MirrorView | null,
): ApiRepository {
  const pull = repo.isMirror ? mirror : null;
  const urls = repoUrls(config, owner.name, repo.name);
  return {
    id: repo.id,
    owner: toUser(owner, viewer, config),
    name: repo.name,
    full_name: `${owner.name}/${repo.name}`,
    description: repo.description,
    empty: repo.isEmpty,
    private: repo.isPrivate,
    fork: repo.forkId != null,
    template: repo.isTemplate,
    parent: parent && repo.forkId === parent.repo.id ? toRepository(parent.repo, parent.owner, parent.perm, viewer, config) : null,
    mirror: repo.isMirror,
    size: Math.round(repo.sizeBytes / 1024),
    language: repo.language,
    languages_url: `${urls.api}/languages`,
    html_url: urls.html,
    url: urls.api,
    link: '',
    ssh_url: urls.ssh,
    clone_url: urls.clone,
    original_url: repo.originalUrl,
    website: repo.website,
    stars_count: repo.numStars,
    forks_count: repo.numForks,
    watchers_count: repo.numWatches,
    open_issues_count: repo.numIssues - repo.numClosedIssues,
    open_pr_counter: repo.numPulls - repo.numClosedPulls,
    release_counter: repo.numReleases,
    branch_count: repo.numBranches,
    default_branch: repo.defaultBranch,
    default_target_branch: repo.defaultBranch,
    archived: repo.isArchived,
    created_at: iso(repo.createdAt),
    updated_at: iso(repo.updatedAt),
    archived_at: isoOrNull(repo.archivedAt),
    permissions: {
      admin: isRepoAdmin(perm),
      push: canWrite(perm, 'repo.code'),
      pull: canRead(perm, 'repo.code'),
    },
    has_code: repo.hasCode,
    has_issues: repo.hasIssues,
    internal_tracker: {
      enable_time_tracker: repo.enableTimeTracker,
      allow_only_contributors_to_track_time: repo.allowOnlyContributorsToTrackTime,
      enable_issue_dependencies: repo.enableIssueDependencies,
    },
    external_tracker: repo.externalTracker
      ? { ...repo.externalTracker, external_tracker_style: repo.externalTracker.external_tracker_style as 'numeric' }
      : null,
    has_wiki: repo.hasWiki,
    external_wiki: repo.externalWikiUrl ? { external_wiki_url: repo.externalWikiUrl } : null,
    has_pull_requests: repo.hasPullRequests,
    has_projects: repo.hasProjects,
    projects_mode: repo.projectsMode,
    has_releases: repo.hasReleases,
    has_packages: repo.hasPackages,
    has_actions: repo.hasActions,
    ignore_whitespace_conflicts: repo.ignoreWhitespaceConflicts,
    allow_merge_commits: repo.allowMergeCommits,
    allow_rebase: repo.allowRebase,
    allow_rebase_explicit: repo.allowRebaseExplicit,
    allow_squash_merge: repo.allowSquashMerge,
    allow_fast_forward_only_merge: repo.allowFastForwardOnlyMerge,
    allow_rebase_update: repo.allowRebaseUpdate,
    allow_merge_update: true,
    allow_manual_merge: repo.allowManualMerge,
    autodetect_manual_merge: repo.autodetectManualMerge,
    default_delete_branch_after_merge: repo.defaultDeleteBranchAfterMerge,
    default_merge_style: repo.defaultMergeStyle,
    default_update_style: 'merge',
    default_allow_maintainer_edit: repo.defaultAllowMaintainerEdit,
    avatar_url: repo.avatar ? `${config.rootUrl}repo-avatars/${repo.avatar}` : '',
    internal: false,
    mirror_interval: pull ? goDuration(pull.intervalSeconds) : '',
    mirror_updated: isoOrNull(pull?.lastSyncAt),
    mirror_last_sync_at: isoOrNull(pull?.lastSyncAt),
    object_format_name: repo.objectFormat,
    repo_transfer: transfer ? toRepoTransfer(transfer, viewer, config) : null,
    topics: repo.topics,
    licenses: repo.licenses,
  };
}
