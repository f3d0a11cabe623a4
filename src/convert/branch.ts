import type { components } from '../../generated/openapi.js';
import type { BranchProtectionRow } from '../db/schema/index.js';
import type { DescribedCommit } from '../git/describe.js';
import type { CommitVerification } from '../services/keys/verification.js';
import { toPayloadCommit } from './commit.js';

type ApiBranch = components['schemas']['Branch'];

/** `access`: the protection rule that applies (if any) and what the caller may do to the branch. */
export function toBranch(
  name: string, commit: DescribedCommit, repoHtml: string, access: { rule?: BranchProtectionRow; canPush: boolean; canMerge: boolean },
  usernames?: Map<string, string>, verification?: CommitVerification,
): ApiBranch {
  const s = access.rule?.settings;
  return {
    name,
    // Gitea's branch answers list no changed files (the spec: empty in branch answers).
    commit: { ...toPayloadCommit(commit, repoHtml, usernames, verification), added: [], removed: [], modified: [] },
    protected: !!access.rule,
    required_approvals: s?.requiredApprovals ?? 0,
    enable_status_check: s?.enableStatusCheck ?? false,
    status_check_contexts: s?.statusCheckContexts ?? [],
    user_can_push: access.canPush,
    user_can_merge: access.canMerge,
    effective_branch_protection_name: access.rule?.ruleName ?? '',
  };
}
