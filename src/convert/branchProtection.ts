import type { components } from '../../generated/openapi.js';
import type { ProtectionView } from '../services/git/branchProtections.js';
import { iso } from './time.js';

type Schemas = components['schemas'];

/** A protection rule as Gitea's BranchProtection (users and teams by name). */
export function toBranchProtection(v: ProtectionView): Schemas['BranchProtection'] {
  const { row, userNames, teamNames } = v;
  const s = row.settings;
  const names = (ids: number[]) => ids.map((id) => userNames.get(id)).filter((n): n is string => !!n);
  const teams = (ids: number[]) => ids.map((id) => teamNames.get(id)).filter((n): n is string => !!n);
  return {
    id: row.id,
    branch_name: row.ruleName,
    rule_name: row.ruleName,
    priority: row.priority,
    enable_push: s.enablePush,
    enable_push_whitelist: s.enablePushWhitelist,
    push_whitelist_usernames: names(s.pushWhitelistUserIds),
    push_whitelist_teams: teams(s.pushWhitelistTeamIds),
    push_whitelist_deploy_keys: s.pushWhitelistDeployKeys,
    enable_force_push: s.enableForcePush,
    enable_force_push_allowlist: s.enableForcePushAllowlist,
    force_push_allowlist_usernames: names(s.forcePushAllowlistUserIds),
    force_push_allowlist_teams: teams(s.forcePushAllowlistTeamIds),
    force_push_allowlist_deploy_keys: s.forcePushAllowlistDeployKeys,
    enable_merge_whitelist: s.enableMergeWhitelist,
    merge_whitelist_usernames: names(s.mergeWhitelistUserIds),
    merge_whitelist_teams: teams(s.mergeWhitelistTeamIds),
    enable_status_check: s.enableStatusCheck,
    status_check_contexts: s.statusCheckContexts,
    required_approvals: s.requiredApprovals,
    enable_approvals_whitelist: s.enableApprovalsWhitelist,
    approvals_whitelist_username: names(s.approvalsWhitelistUserIds),
    approvals_whitelist_teams: teams(s.approvalsWhitelistTeamIds),
    block_on_rejected_reviews: s.blockOnRejectedReviews,
    block_on_official_review_requests: s.blockOnOfficialReviewRequests,
    block_on_outdated_branch: s.blockOnOutdatedBranch,
    dismiss_stale_approvals: s.dismissStaleApprovals,
    ignore_stale_approvals: s.ignoreStaleApprovals,
    require_signed_commits: false,
    protected_file_patterns: '',
    unprotected_file_patterns: '',
    block_admin_merge_override: s.blockAdminMergeOverride,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
