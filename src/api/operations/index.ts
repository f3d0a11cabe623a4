// operationId → handler. Every spec operation has an entry (checked at start-up and in a test); an
// operation whose capability comes with a later issue is marked `later(...)` and answers 501.
import type { Registry } from '../types.js';
import { later } from '../types.js';
import { adminCreateUser } from './admin/adminCreateUser.js';
import { getVersion } from './miscellaneous/getVersion.js';
import { userCreateToken } from './user/userCreateToken.js';
import { userDeleteAccessToken } from './user/userDeleteAccessToken.js';
import { userGet } from './user/userGet.js';
import { userGetCurrent } from './user/userGetCurrent.js';
import { userGetTokens } from './user/userGetTokens.js';

const orgsAndRepos = later('issue #3: organizations, teams, repositories');
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
  orgCreate: orgsAndRepos,
  createOrgRepo: orgsAndRepos,
  orgCreateTeam: orgsAndRepos,
  // git
  repoCreateBranch: git,
  repoApplyDiffPatch: git,
  GetAnnotatedTag: git,
  repoTransfer: git,
  repoCreateWikiPage: git,
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
