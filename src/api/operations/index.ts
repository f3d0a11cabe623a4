// operationId → handler. Every spec operation has an entry (checked at start-up and in a test); an
// operation whose capability comes with a later issue is marked `later(...)` and answers 501.
import type { Registry } from '../types.js';
import { later } from '../types.js';
import { adminCreateUser } from './admin/adminCreateUser.js';
import { orgCreate } from './organization/orgCreate.js';
import { orgGet } from './organization/orgGet.js';
import { orgListMembers } from './organization/orgListMembers.js';
import { orgListTeams } from './organization/orgListTeams.js';
import { orgCreateTeam } from './organization/orgCreateTeam.js';
import { orgGetTeam } from './organization/orgGetTeam.js';
import { orgAddTeamMember } from './organization/orgAddTeamMember.js';
import { orgListTeamRepos } from './organization/orgListTeamRepos.js';
import { createOrgRepo } from './organization/createOrgRepo.js';
import { createOrgRepoDeprecated } from './organization/createOrgRepoDeprecated.js';
import { createCurrentUserRepo } from './repository/createCurrentUserRepo.js';
import { repoGet } from './repository/repoGet.js';
import { repoEdit } from './repository/repoEdit.js';
import { repoDelete } from './repository/repoDelete.js';
import { repoSearch } from './repository/repoSearch.js';
import { repoAddCollaborator } from './repository/repoAddCollaborator.js';
import { repoDeleteCollaborator } from './repository/repoDeleteCollaborator.js';
import { repoGetRepoPermissions } from './repository/repoGetRepoPermissions.js';
import { userCurrentListRepos } from './user/userCurrentListRepos.js';
import { getVersion } from './miscellaneous/getVersion.js';
import { repoListBranches } from './repository/repoListBranches.js';
import { repoGetBranch } from './repository/repoGetBranch.js';
import { repoDeleteBranch } from './repository/repoDeleteBranch.js';
import { repoCreateTag } from './repository/repoCreateTag.js';
import { repoListTags } from './repository/repoListTags.js';
import { repoGetContents } from './repository/repoGetContents.js';
import { repoGetContentsList } from './repository/repoGetContentsList.js';
import { repoGetRawFile } from './repository/repoGetRawFile.js';
import { repoCreateBranch } from './repository/repoCreateBranch.js';
import { repoApplyDiffPatch } from './repository/repoApplyDiffPatch.js';
import { GetAnnotatedTag } from './repository/GetAnnotatedTag.js';
import { userCreateToken } from './user/userCreateToken.js';
import { userDeleteAccessToken } from './user/userDeleteAccessToken.js';
import { userGet } from './user/userGet.js';
import { userGetCurrent } from './user/userGetCurrent.js';
import { userGetTokens } from './user/userGetTokens.js';

const git = later('issue #4: git');
const collaboration = later('issue #5: issues, pull requests, comments, milestones, attachments');
const unscheduled = later('not scheduled yet');

export const registry: Registry = {
  // spine
  getVersion,
  adminCreateUser,
  userGetCurrent,
  userGet,
  userGetTokens,
  userCreateToken,
  userDeleteAccessToken,
  // organizations, teams, repositories
  orgCreate,
  createOrgRepo,
  orgCreateTeam,
  orgGet,
  orgListMembers,
  orgListTeams,
  orgGetTeam,
  orgAddTeamMember,
  orgListTeamRepos,
  createOrgRepoDeprecated,
  createCurrentUserRepo,
  userCurrentListRepos,
  repoSearch,
  repoGet,
  repoEdit,
  repoDelete,
  repoAddCollaborator,
  repoDeleteCollaborator,
  repoGetRepoPermissions,
  // git
  repoCreateBranch,
  repoApplyDiffPatch,
  GetAnnotatedTag,
  repoTransfer: git,
  repoCreateWikiPage: git,
  repoListBranches,
  repoGetBranch,
  repoDeleteBranch,
  repoCreateTag,
  repoListTags,
  repoGetContents,
  repoGetContentsList,
  repoGetRawFile,
  repoGetWikiPage: git,
  acceptRepoTransfer: git,
  rejectRepoTransfer: git,
  // collaboration
  issueGetIssue: collaboration,
  repoEditPullRequest: collaboration,
  issueEditComment: collaboration,
  issueEditMilestone: collaboration,
  issueCreateIssueAttachment: collaboration,
  issueListIssueAttachments: collaboration,
  issueEditIssueCommentAttachment: collaboration,
  // not yet scheduled
  listAdminWorkflowJobs: unscheduled,
  getAdminRunners: unscheduled,
  adminCreateRunnerRegistrationToken: unscheduled,
  getAdminRunner: unscheduled,
  deleteAdminRunner: unscheduled,
  updateAdminRunner: unscheduled,
  listAdminWorkflowRuns: unscheduled,
  adminCronList: unscheduled,
  adminCronRun: unscheduled,
  adminGetAllEmails: unscheduled,
  adminSearchEmails: unscheduled,
  adminListHooks: unscheduled,
  adminCreateHook: unscheduled,
  adminGetHook: unscheduled,
  orgCreateHook: unscheduled,
  orgListActivityFeeds: unscheduled,
  orgCreateProjectColumn: unscheduled,
  orgGetProject: unscheduled,
  userCurrentPostGPGKey: unscheduled,
  userCurrentGetGPGKey: unscheduled,
  userCurrentTrackedTimes: unscheduled,
  notifyReadRepoList: unscheduled,
  repoListKeys: unscheduled,
  repoListStatuses: unscheduled,
};
