// The API's branch protection options → the service's input (null and absent both mean "not given").
import type { components } from '../../generated/openapi.js';
import type { ProtectionInput } from '../services/git/branchProtections.js';

type Body = components['schemas']['EditBranchProtectionOption'];
const v = <T>(x: T | null | undefined): T | undefined => (x === null ? undefined : x);

export function protectionInput(b: Body): ProtectionInput {
  return {
    priority: v(b.priority),
    enablePush: v(b.enable_push),
    enablePushWhitelist: v(b.enable_push_whitelist),
    pushWhitelistUsernames: v(b.push_whitelist_usernames),
    pushWhitelistTeams: v(b.push_whitelist_teams),
    pushWhitelistDeployKeys: v(b.push_whitelist_deploy_keys),
    enableForcePush: v(b.enable_force_push),
    enableForcePushAllowlist: v(b.enable_force_push_allowlist),
    forcePushAllowlistUsernames: v(b.force_push_allowlist_usernames),
    forcePushAllowlistTeams: v(b.force_push_allowlist_teams),
    forcePushAllowlistDeployKeys: v(b.force_push_allowlist_deploy_keys),
    enableMergeWhitelist: v(b.enable_merge_whitelist),
    mergeWhitelistUsernames: v(b.merge_whitelist_usernames),
    mergeWhitelistTeams: v(b.merge_whitelist_teams),
    enableStatusCheck: v(b.enable_status_check),
    statusCheckContexts: v(b.status_check_contexts),
    requiredApprovals: v(b.required_approvals),
    enableApprovalsWhitelist: v(b.enable_approvals_whitelist),
    approvalsWhitelistUsernames: v(b.approvals_whitelist_username),
    approvalsWhitelistTeams: v(b.approvals_whitelist_teams),
    blockOnRejectedReviews: v(b.block_on_rejected_reviews),
    blockOnOfficialReviewRequests: v(b.block_on_official_review_requests),
    blockOnOutdatedBranch: v(b.block_on_outdated_branch),
    dismissStaleApprovals: v(b.dismiss_stale_approvals),
    ignoreStaleApprovals: v(b.ignore_stale_approvals),
    requireSignedCommits: v(b.require_signed_commits),
    protectedFilePatterns: v(b.protected_file_patterns),
    unprotectedFilePatterns: v(b.unprotected_file_patterns),
    blockAdminMergeOverride: v(b.block_admin_merge_override),
  };
}
