import type { components } from '../../generated/openapi.js';
import type { DescribedCommit } from '../git/describe.js';
import type { CommitVerification } from '../services/keys/verification.js';
import { toPayloadCommit } from './commit.js';

type ApiBranch = components['schemas']['Branch'];

/** anvil has no branch protection yet: every branch is unprotected. */
export function toBranch(name: string, commit: DescribedCommit, repoHtml: string, canPush: boolean, usernames?: Map<string, string>, verification?: CommitVerification): ApiBranch {
  return {
    name,
    // Gitea's branch answers list no changed files (the spec: empty in branch answers).
    commit: { ...toPayloadCommit(commit, repoHtml, usernames, verification), added: [], removed: [], modified: [] },
    protected: false,
    required_approvals: 0,
    enable_status_check: false,
    status_check_contexts: [],
    user_can_push: canPush,
    user_can_merge: canPush,
    effective_branch_protection_name: '',
  };
}
