import { toRepository } from '../../../convert/repo.js';
import type { EditRepoInput } from '../../../services/repos/repos.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler, Request } from '../../types.js';

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

function editInput(b: Request<'repoEdit'>['body']): EditRepoInput {
  // As in Gitea, a given internal_tracker replaces the whole setting: a field left out is false.
  const it = b.internal_tracker;
  const tracker = (v: boolean | null | undefined) => (it ? (v ?? false) : undefined);
  const et = b.external_tracker;
  return {
    name: opt(b.name),
    description: opt(b.description),
    website: opt(b.website),
    private: opt(b.private),
    template: opt(b.template),
    archived: opt(b.archived),
    defaultBranch: opt(b.default_branch),
    units: {
      hasIssues: opt(b.has_issues),
      hasWiki: opt(b.has_wiki),
      hasPullRequests: opt(b.has_pull_requests),
      hasProjects: opt(b.has_projects),
      hasReleases: opt(b.has_releases),
      hasPackages: opt(b.has_packages),
      hasActions: opt(b.has_actions),
    },
    settings: {
      projectsMode: opt(b.projects_mode),
      ignoreWhitespaceConflicts: opt(b.ignore_whitespace_conflicts),
      allowMergeCommits: opt(b.allow_merge_commits),
      allowRebase: opt(b.allow_rebase),
      allowRebaseExplicit: opt(b.allow_rebase_explicit),
      allowSquashMerge: opt(b.allow_squash_merge),
      allowFastForwardOnlyMerge: opt(b.allow_fast_forward_only_merge),
      allowManualMerge: opt(b.allow_manual_merge),
      autodetectManualMerge: opt(b.autodetect_manual_merge),
      allowRebaseUpdate: opt(b.allow_rebase_update),
      defaultDeleteBranchAfterMerge: opt(b.default_delete_branch_after_merge),
      defaultMergeStyle: opt(b.default_merge_style),
      defaultAllowMaintainerEdit: opt(b.default_allow_maintainer_edit),
      enableTimeTracker: tracker(it?.enable_time_tracker),
      allowOnlyContributorsToTrackTime: tracker(it?.allow_only_contributors_to_track_time),
      enableIssueDependencies: tracker(it?.enable_issue_dependencies),
    },
    externalTracker: et
      ? {
          external_tracker_url: et.external_tracker_url,
          external_tracker_format: et.external_tracker_format ?? '',
          external_tracker_style: et.external_tracker_style || 'numeric',
          external_tracker_regexp_pattern: et.external_tracker_regexp_pattern ?? '',
        }
      : undefined,
    externalWikiUrl: opt(b.external_wiki)?.external_wiki_url,
    mirror: b.mirror_interval != null || b.enable_prune != null ? { interval: opt(b.mirror_interval), enablePrune: opt(b.enable_prune) } : undefined,
  };
}

export const repoEdit: Handler<'repoEdit'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const repo = await req.services.repos.edit(loaded, actorOf(req), editInput(req.body));
  const mirror = await req.services.mirrors.viewOf(repo);
  return { status: 200, body: toRepository(repo, loaded.owner, loaded.perm, req.auth.actor, req.config, undefined, undefined, mirror) };
};
