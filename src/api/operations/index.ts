// operationId → handler. Every spec operation has an entry (checked at start-up and in a test); an
// operation whose capability comes with a later issue is marked `later(...)` and answers 501.
import type { Registry } from '../types.js';
import { adminCreateUser } from './admin/adminCreateUser.js';
import { orgCreate } from './organization/orgCreate.js';
import { orgGet } from './organization/orgGet.js';
import { orgListMembers } from './organization/orgListMembers.js';
import { orgListTeams } from './organization/orgListTeams.js';
import { orgCreateTeam } from './organization/orgCreateTeam.js';
import { orgGetTeam } from './organization/orgGetTeam.js';
import { orgAddTeamMember } from './organization/orgAddTeamMember.js';
import { orgRemoveTeamMember } from './organization/orgRemoveTeamMember.js';
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
import { issueCreateIssueAttachment } from './issue/issueCreateIssueAttachment.js';
import { issueListIssueAttachments } from './issue/issueListIssueAttachments.js';
import { issueEditIssueCommentAttachment } from './issue/issueEditIssueCommentAttachment.js';
import { issueCreateIssueCommentAttachment } from './issue/issueCreateIssueCommentAttachment.js';
import { issueListIssueCommentAttachments } from './issue/issueListIssueCommentAttachments.js';
import { getGeneralAttachmentSettings } from './miscellaneous/getGeneralAttachmentSettings.js';
import { issueGetIssue } from './issue/issueGetIssue.js';
import { issueListIssues } from './issue/issueListIssues.js';
import { issueCreateIssue } from './issue/issueCreateIssue.js';
import { issueEditIssue } from './issue/issueEditIssue.js';
import { issueGetComments } from './issue/issueGetComments.js';
import { issueCreateComment } from './issue/issueCreateComment.js';
import { issueGetComment } from './issue/issueGetComment.js';
import { issueEditComment } from './issue/issueEditComment.js';
import { issueDeleteComment } from './issue/issueDeleteComment.js';
import { issueListLabels } from './issue/issueListLabels.js';
import { issueCreateLabel } from './issue/issueCreateLabel.js';
import { issueGetMilestonesList } from './issue/issueGetMilestonesList.js';
import { issueCreateMilestone } from './issue/issueCreateMilestone.js';
import { issueGetMilestone } from './issue/issueGetMilestone.js';
import { issueEditMilestone } from './issue/issueEditMilestone.js';
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
import { repoCreateWikiPage } from './repository/repoCreateWikiPage.js';
import { repoGetWikiPage } from './repository/repoGetWikiPage.js';
import { GetAnnotatedTag } from './repository/GetAnnotatedTag.js';
import { repoTransfer } from './repository/repoTransfer.js';
import { acceptRepoTransfer } from './repository/acceptRepoTransfer.js';
import { rejectRepoTransfer } from './repository/rejectRepoTransfer.js';
import { userCreateToken } from './user/userCreateToken.js';
import { userDeleteAccessToken } from './user/userDeleteAccessToken.js';
import { userGet } from './user/userGet.js';
import { userGetCurrent } from './user/userGetCurrent.js';
import { userGetTokens } from './user/userGetTokens.js';
import { repoCreatePullRequest } from './repository/repoCreatePullRequest.js';
import { repoListPullRequests } from './repository/repoListPullRequests.js';
import { repoGetPullRequest } from './repository/repoGetPullRequest.js';
import { repoPullRequestIsMerged } from './repository/repoPullRequestIsMerged.js';
import { repoMergePullRequest } from './repository/repoMergePullRequest.js';
import { repoCancelScheduledAutoMerge } from './repository/repoCancelScheduledAutoMerge.js';
import { repoDownloadPullDiffOrPatch } from './repository/repoDownloadPullDiffOrPatch.js';
import { repoGetPullRequestFiles } from './repository/repoGetPullRequestFiles.js';
import { repoGetPullRequestCommits } from './repository/repoGetPullRequestCommits.js';
import { repoUpdatePullRequest } from './repository/repoUpdatePullRequest.js';
import { repoGetPullRequestByBaseHead } from './repository/repoGetPullRequestByBaseHead.js';
import { repoListPullReviews } from './repository/repoListPullReviews.js';
import { repoCreatePullReview } from './repository/repoCreatePullReview.js';
import { repoGetPullReview } from './repository/repoGetPullReview.js';
import { repoSubmitPullReview } from './repository/repoSubmitPullReview.js';
import { repoDeletePullReview } from './repository/repoDeletePullReview.js';
import { repoGetPullReviewComments } from './repository/repoGetPullReviewComments.js';
import { repoDismissPullReview } from './repository/repoDismissPullReview.js';
import { repoCreatePullReviewRequests } from './repository/repoCreatePullReviewRequests.js';
import { repoDeletePullReviewRequests } from './repository/repoDeletePullReviewRequests.js';
import { repoListBranchProtection } from './repository/repoListBranchProtection.js';
import { repoCreateBranchProtection } from './repository/repoCreateBranchProtection.js';
import { repoGetBranchProtection } from './repository/repoGetBranchProtection.js';
import { repoEditBranchProtection } from './repository/repoEditBranchProtection.js';
import { repoDeleteBranchProtection } from './repository/repoDeleteBranchProtection.js';
import { repoEditPullRequest } from './repository/repoEditPullRequest.js';
import { repoListHooks } from './repository/repoListHooks.js';
import { repoCreateHook } from './repository/repoCreateHook.js';
import { repoGetHook } from './repository/repoGetHook.js';
import { repoEditHook } from './repository/repoEditHook.js';
import { repoDeleteHook } from './repository/repoDeleteHook.js';
import { repoListHookDeliveries } from './repository/repoListHookDeliveries.js';
import { repoGetHookDelivery } from './repository/repoGetHookDelivery.js';
import { repoRedeliverHook } from './repository/repoRedeliverHook.js';
import { orgListHooks } from './organization/orgListHooks.js';
import { orgCreateHook } from './organization/orgCreateHook.js';
import { orgGetHook } from './organization/orgGetHook.js';
import { orgEditHook } from './organization/orgEditHook.js';
import { orgDeleteHook } from './organization/orgDeleteHook.js';
import { orgListHookDeliveries } from './organization/orgListHookDeliveries.js';
import { orgGetHookDelivery } from './organization/orgGetHookDelivery.js';
import { orgRedeliverHook } from './organization/orgRedeliverHook.js';
import { adminListHooks } from './admin/adminListHooks.js';
import { adminCreateHook } from './admin/adminCreateHook.js';
import { adminGetHook } from './admin/adminGetHook.js';
import { adminEditHook } from './admin/adminEditHook.js';
import { adminDeleteHook } from './admin/adminDeleteHook.js';
import { adminListHookDeliveries } from './admin/adminListHookDeliveries.js';
import { adminGetHookDelivery } from './admin/adminGetHookDelivery.js';
import { adminRedeliverHook } from './admin/adminRedeliverHook.js';
import { repoTestHook } from './repository/repoTestHook.js';
import { orgListActivityFeeds } from './organization/orgListActivityFeeds.js';
import { userListActivityFeeds } from './user/userListActivityFeeds.js';
import { repoListActivityFeeds } from './repository/repoListActivityFeeds.js';
import { notifyGetList } from './notification/notifyGetList.js';
import { notifyGetRepoList } from './notification/notifyGetRepoList.js';
import { notifyReadList } from './notification/notifyReadList.js';
import { notifyReadRepoList } from './notification/notifyReadRepoList.js';
import { notifyNewAvailable } from './notification/notifyNewAvailable.js';
import { notifyGetThread } from './notification/notifyGetThread.js';
import { notifyReadThread } from './notification/notifyReadThread.js';
import { repoListSubscribers } from './repository/repoListSubscribers.js';
import { userCurrentCheckSubscription } from './repository/userCurrentCheckSubscription.js';
import { userCurrentPutSubscription } from './repository/userCurrentPutSubscription.js';
import { userCurrentDeleteSubscription } from './repository/userCurrentDeleteSubscription.js';
import { issueSubscriptions } from './issue/issueSubscriptions.js';
import { issueCheckSubscription } from './issue/issueCheckSubscription.js';
import { issueAddSubscription } from './issue/issueAddSubscription.js';
import { issueDeleteSubscription } from './issue/issueDeleteSubscription.js';
import { repoCreateStatus } from './repository/repoCreateStatus.js';
import { repoListStatuses } from './repository/repoListStatuses.js';
import { repoListStatusesByRef } from './repository/repoListStatusesByRef.js';
import { repoGetCombinedStatusByRef } from './repository/repoGetCombinedStatusByRef.js';
import { adminCronList } from './admin/adminCronList.js';
import { adminCronRun } from './admin/adminCronRun.js';
import { getRepoRunners } from './repository/getRepoRunners.js';
import { repoCreateRunnerRegistrationToken } from './repository/repoCreateRunnerRegistrationToken.js';
import { repoGetRunnerRegistrationToken } from './repository/repoGetRunnerRegistrationToken.js';
import { getRepoRunner } from './repository/getRepoRunner.js';
import { deleteRepoRunner } from './repository/deleteRepoRunner.js';
import { getOrgRunners } from './organization/getOrgRunners.js';
import { orgCreateRunnerRegistrationToken } from './organization/orgCreateRunnerRegistrationToken.js';
import { orgGetRunnerRegistrationToken } from './organization/orgGetRunnerRegistrationToken.js';
import { getOrgRunner } from './organization/getOrgRunner.js';
import { deleteOrgRunner } from './organization/deleteOrgRunner.js';
import { getWorkflowRuns } from './repository/getWorkflowRuns.js';
import { GetWorkflowRun } from './repository/GetWorkflowRun.js';
import { deleteActionRun } from './repository/deleteActionRun.js';
import { listWorkflowRunJobs } from './repository/listWorkflowRunJobs.js';
import { rerunWorkflowRun } from './repository/rerunWorkflowRun.js';
import { cancelWorkflowRun } from './repository/cancelWorkflowRun.js';
import { getWorkflowJob } from './repository/getWorkflowJob.js';
import { downloadActionsRunJobLogs } from './repository/downloadActionsRunJobLogs.js';
import { ActionsListRepositoryWorkflows } from './repository/ActionsListRepositoryWorkflows.js';
import { ActionsDispatchWorkflow } from './repository/ActionsDispatchWorkflow.js';
import { listAdminWorkflowJobs } from './admin/listAdminWorkflowJobs.js';
import { getAdminRunners } from './admin/getAdminRunners.js';
import { adminCreateRunnerRegistrationToken } from './admin/adminCreateRunnerRegistrationToken.js';
import { getAdminRunner } from './admin/getAdminRunner.js';
import { deleteAdminRunner } from './admin/deleteAdminRunner.js';
import { updateAdminRunner } from './admin/updateAdminRunner.js';
import { listAdminWorkflowRuns } from './admin/listAdminWorkflowRuns.js';
import { adminGetAllEmails } from './admin/adminGetAllEmails.js';
import { adminSearchEmails } from './admin/adminSearchEmails.js';
import { userListEmails } from './user/userListEmails.js';
import { userAddEmail } from './user/userAddEmail.js';
import { userDeleteEmail } from './user/userDeleteEmail.js';
import { adminSearchUsers } from './admin/adminSearchUsers.js';
import { adminGetAllOrgs } from './admin/adminGetAllOrgs.js';
import { adminEditUser } from './admin/adminEditUser.js';
import { adminDeleteUser } from './admin/adminDeleteUser.js';
import { adminCreateOrg } from './admin/adminCreateOrg.js';
import { adminCreateRepo } from './admin/adminCreateRepo.js';
import { userSearch } from './user/userSearch.js';
import { userCurrentListGPGKeys } from './user/userCurrentListGPGKeys.js';
import { userCurrentPostGPGKey } from './user/userCurrentPostGPGKey.js';
import { userCurrentGetGPGKey } from './user/userCurrentGetGPGKey.js';
import { userCurrentDeleteGPGKey } from './user/userCurrentDeleteGPGKey.js';
import { getVerificationToken } from './user/getVerificationToken.js';
import { userVerifyGPGKey } from './user/userVerifyGPGKey.js';
import { userListGPGKeys } from './user/userListGPGKeys.js';
import { repoListKeys } from './repository/repoListKeys.js';
import { repoCreateKey } from './repository/repoCreateKey.js';
import { repoGetKey } from './repository/repoGetKey.js';
import { repoDeleteKey } from './repository/repoDeleteKey.js';
import { userCurrentListKeys } from './user/userCurrentListKeys.js';
import { userCurrentPostKey } from './user/userCurrentPostKey.js';
import { userCurrentGetKey } from './user/userCurrentGetKey.js';
import { userCurrentDeleteKey } from './user/userCurrentDeleteKey.js';
import { userListKeys } from './user/userListKeys.js';
import { orgListProjects } from './organization/orgListProjects.js';
import { orgCreateProject } from './organization/orgCreateProject.js';
import { orgGetProject } from './organization/orgGetProject.js';
import { orgEditProject } from './organization/orgEditProject.js';
import { orgDeleteProject } from './organization/orgDeleteProject.js';
import { orgListProjectColumns } from './organization/orgListProjectColumns.js';
import { orgCreateProjectColumn } from './organization/orgCreateProjectColumn.js';
import { orgEditProjectColumn } from './organization/orgEditProjectColumn.js';
import { orgDeleteProjectColumn } from './organization/orgDeleteProjectColumn.js';
import { orgAddProjectColumnIssue } from './organization/orgAddProjectColumnIssue.js';
import { issueTrackedTimes } from './issue/issueTrackedTimes.js';
import { issueAddTime } from './issue/issueAddTime.js';
import { issueResetTime } from './issue/issueResetTime.js';
import { issueDeleteTime } from './issue/issueDeleteTime.js';
import { issueStartStopWatch } from './issue/issueStartStopWatch.js';
import { issueStopStopWatch } from './issue/issueStopStopWatch.js';
import { issueDeleteStopWatch } from './issue/issueDeleteStopWatch.js';
import { repoTrackedTimes } from './repository/repoTrackedTimes.js';
import { userTrackedTimes } from './repository/userTrackedTimes.js';
import { userCurrentTrackedTimes } from './user/userCurrentTrackedTimes.js';
import { userGetStopWatches } from './user/userGetStopWatches.js';
// Labels, milestones and issue search
import { issueGetLabels } from './issue/issueGetLabels.js';
import { issueAddLabel } from './issue/issueAddLabel.js';
import { issueReplaceLabels } from './issue/issueReplaceLabels.js';
import { issueClearLabels } from './issue/issueClearLabels.js';
import { issueRemoveLabel } from './issue/issueRemoveLabel.js';
import { issueGetLabel } from './issue/issueGetLabel.js';
import { issueEditLabel } from './issue/issueEditLabel.js';
import { issueDeleteLabel } from './issue/issueDeleteLabel.js';
import { issueDeleteMilestone } from './issue/issueDeleteMilestone.js';
import { orgListLabels } from './organization/orgListLabels.js';
import { orgCreateLabel } from './organization/orgCreateLabel.js';
import { orgGetLabel } from './organization/orgGetLabel.js';
import { orgEditLabel } from './organization/orgEditLabel.js';
import { orgDeleteLabel } from './organization/orgDeleteLabel.js';
import { issueSearchIssues } from './issue/issueSearchIssues.js';
// People and organizations: the lists people walk, org/team administration
import { userListRepos } from './user/userListRepos.js';
import { orgListRepos } from './organization/orgListRepos.js';
import { orgListCurrentUserOrgs } from './organization/orgListCurrentUserOrgs.js';
import { orgListUserOrgs } from './organization/orgListUserOrgs.js';
import { repoListCollaborators } from './repository/repoListCollaborators.js';
import { repoCheckCollaborator } from './repository/repoCheckCollaborator.js';
import { repoListTeams } from './repository/repoListTeams.js';
import { orgListTeamMembers } from './organization/orgListTeamMembers.js';
import { orgListPublicMembers } from './organization/orgListPublicMembers.js';
import { orgIsPublicMember } from './organization/orgIsPublicMember.js';
import { orgPublicizeMember } from './organization/orgPublicizeMember.js';
import { orgConcealMember } from './organization/orgConcealMember.js';
import { orgDeleteMember } from './organization/orgDeleteMember.js';
import { orgEdit } from './organization/orgEdit.js';
import { orgDelete } from './organization/orgDelete.js';
import { orgEditTeam } from './organization/orgEditTeam.js';
import { orgDeleteTeam } from './organization/orgDeleteTeam.js';
import { orgAddTeamRepository } from './organization/orgAddTeamRepository.js';
import { orgRemoveTeamRepository } from './organization/orgRemoveTeamRepository.js';
// Releases
import { repoListReleases } from './repository/repoListReleases.js';
import { repoCreateRelease } from './repository/repoCreateRelease.js';
import { repoGetLatestRelease } from './repository/repoGetLatestRelease.js';
import { repoGetReleaseByTag } from './repository/repoGetReleaseByTag.js';
import { repoDeleteReleaseByTag } from './repository/repoDeleteReleaseByTag.js';
import { repoGetRelease } from './repository/repoGetRelease.js';
import { repoEditRelease } from './repository/repoEditRelease.js';
import { repoDeleteRelease } from './repository/repoDeleteRelease.js';
import { repoListReleaseAttachments } from './repository/repoListReleaseAttachments.js';
import { repoCreateReleaseAttachment } from './repository/repoCreateReleaseAttachment.js';
import { repoGetReleaseAttachment } from './repository/repoGetReleaseAttachment.js';
import { repoEditReleaseAttachment } from './repository/repoEditReleaseAttachment.js';
import { repoDeleteReleaseAttachment } from './repository/repoDeleteReleaseAttachment.js';
// Forks, stars and topics
import { listForks } from './repository/listForks.js';
import { createFork } from './repository/createFork.js';
import { repoListStargazers } from './repository/repoListStargazers.js';
import { userCurrentListStarred } from './user/userCurrentListStarred.js';
import { userCurrentCheckStarring } from './user/userCurrentCheckStarring.js';
import { userCurrentPutStar } from './user/userCurrentPutStar.js';
import { userCurrentDeleteStar } from './user/userCurrentDeleteStar.js';
import { userListStarred } from './user/userListStarred.js';
import { repoListTopics } from './repository/repoListTopics.js';
import { repoUpdateTopics } from './repository/repoUpdateTopics.js';
import { repoAddTopic } from './repository/repoAddTopic.js';
import { repoDeleteTopic } from './repository/repoDeleteTopic.js';
import { topicSearch } from './repository/topicSearch.js';
// Files, commits and git data (#15)
import { repoCreateFile } from './repository/repoCreateFile.js';
import { repoUpdateFile } from './repository/repoUpdateFile.js';
import { repoDeleteFile } from './repository/repoDeleteFile.js';
import { repoChangeFiles } from './repository/repoChangeFiles.js';
import { repoGetAllCommits } from './repository/repoGetAllCommits.js';
import { repoGetSingleCommit } from './repository/repoGetSingleCommit.js';
import { repoCompareDiff } from './repository/repoCompareDiff.js';
import { repoListAllGitRefs } from './repository/repoListAllGitRefs.js';
import { repoListGitRefs } from './repository/repoListGitRefs.js';
import { GetTree } from './repository/GetTree.js';
import { GetBlob } from './repository/GetBlob.js';
import { repoGetArchive } from './repository/repoGetArchive.js';
// avatars
import { userUpdateAvatar } from './user/userUpdateAvatar.js';
import { userDeleteAvatar } from './user/userDeleteAvatar.js';
import { orgUpdateAvatar } from './organization/orgUpdateAvatar.js';
import { orgDeleteAvatar } from './organization/orgDeleteAvatar.js';


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
  orgRemoveTeamMember,
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
  repoTransfer,
  repoCreateWikiPage,
  repoListBranches,
  repoGetBranch,
  repoDeleteBranch,
  repoCreateTag,
  repoListTags,
  repoGetContents,
  repoGetContentsList,
  repoGetRawFile,
  repoGetWikiPage,
  acceptRepoTransfer,
  rejectRepoTransfer,
  // collaboration
  issueGetIssue,
  repoEditPullRequest,
  issueEditComment,
  issueEditMilestone,
  issueCreateIssueAttachment,
  issueListIssueAttachments,
  issueEditIssueCommentAttachment,
  issueListIssues,
  issueCreateIssue,
  issueEditIssue,
  issueGetComments,
  issueCreateComment,
  issueGetComment,
  issueDeleteComment,
  issueCreateIssueCommentAttachment,
  issueListIssueCommentAttachments,
  issueListLabels,
  issueCreateLabel,
  issueGetMilestonesList,
  issueCreateMilestone,
  issueGetMilestone,
  repoListPullRequests,
  repoCreatePullRequest,
  repoGetPullRequest,
  repoPullRequestIsMerged,
  repoMergePullRequest,
  repoCancelScheduledAutoMerge,
  repoDownloadPullDiffOrPatch,
  repoGetPullRequestFiles,
  repoGetPullRequestCommits,
  repoUpdatePullRequest,
  repoGetPullRequestByBaseHead,
  repoListPullReviews,
  repoCreatePullReview,
  repoGetPullReview,
  repoSubmitPullReview,
  repoDeletePullReview,
  repoGetPullReviewComments,
  repoDismissPullReview,
  repoCreatePullReviewRequests,
  repoDeletePullReviewRequests,
  repoListBranchProtection,
  repoCreateBranchProtection,
  repoGetBranchProtection,
  repoEditBranchProtection,
  repoDeleteBranchProtection,
  getGeneralAttachmentSettings,
  // events
  orgListActivityFeeds,
  userListActivityFeeds,
  repoListActivityFeeds,
  repoListHooks,
  repoCreateHook,
  repoGetHook,
  repoEditHook,
  repoDeleteHook,
  repoListHookDeliveries,
  repoGetHookDelivery,
  repoRedeliverHook,
  orgListHooks,
  orgCreateHook,
  orgGetHook,
  orgEditHook,
  orgDeleteHook,
  orgListHookDeliveries,
  orgGetHookDelivery,
  orgRedeliverHook,
  adminListHooks,
  adminCreateHook,
  adminGetHook,
  adminEditHook,
  adminDeleteHook,
  adminListHookDeliveries,
  adminGetHookDelivery,
  adminRedeliverHook,
  repoTestHook,
  // commit statuses
  repoCreateStatus,
  repoListStatuses,
  repoListStatusesByRef,
  repoGetCombinedStatusByRef,
  // notifications
  notifyGetList,
  notifyGetRepoList,
  notifyReadList,
  notifyReadRepoList,
  notifyNewAvailable,
  notifyGetThread,
  notifyReadThread,
  // watching and subscriptions
  repoListSubscribers,
  userCurrentCheckSubscription,
  userCurrentPutSubscription,
  userCurrentDeleteSubscription,
  issueSubscriptions,
  issueCheckSubscription,
  issueAddSubscription,
  issueDeleteSubscription,
  // administration
  adminCronList,
  adminCronRun,
  adminGetAllEmails,
  adminSearchEmails,
  userListEmails,
  userAddEmail,
  userDeleteEmail,
  adminSearchUsers,
  adminGetAllOrgs,
  adminEditUser,
  adminDeleteUser,
  adminCreateOrg,
  adminCreateRepo,
  userSearch,
  // tracked time and stopwatches
  issueTrackedTimes,
  issueAddTime,
  issueResetTime,
  issueDeleteTime,
  issueStartStopWatch,
  issueStopStopWatch,
  issueDeleteStopWatch,
  repoTrackedTimes,
  userTrackedTimes,
  userCurrentTrackedTimes,
  userGetStopWatches,
  // organization projects
  orgListProjects,
  orgCreateProject,
  orgGetProject,
  orgEditProject,
  orgDeleteProject,
  orgListProjectColumns,
  orgCreateProjectColumn,
  orgEditProjectColumn,
  orgDeleteProjectColumn,
  orgAddProjectColumnIssue,
  // SSH keys
  repoListKeys,
  repoCreateKey,
  repoGetKey,
  repoDeleteKey,
  userCurrentListKeys,
  userCurrentPostKey,
  userCurrentGetKey,
  userCurrentDeleteKey,
  userListKeys,
  // GPG keys
  userCurrentListGPGKeys,
  userCurrentPostGPGKey,
  userCurrentGetGPGKey,
  userCurrentDeleteGPGKey,
  getVerificationToken,
  userVerifyGPGKey,
  userListGPGKeys,
  // Actions (repositories)
  getWorkflowRuns,
  GetWorkflowRun,
  deleteActionRun,
  listWorkflowRunJobs,
  rerunWorkflowRun,
  cancelWorkflowRun,
  getWorkflowJob,
  downloadActionsRunJobLogs,
  ActionsListRepositoryWorkflows,
  ActionsDispatchWorkflow,
  // Actions runners of repositories and organizations
  getRepoRunners,
  repoCreateRunnerRegistrationToken,
  repoGetRunnerRegistrationToken,
  getRepoRunner,
  deleteRepoRunner,
  getOrgRunners,
  orgCreateRunnerRegistrationToken,
  orgGetRunnerRegistrationToken,
  getOrgRunner,
  deleteOrgRunner,
  // Actions (admin)
  listAdminWorkflowJobs,
  getAdminRunners,
  adminCreateRunnerRegistrationToken,
  getAdminRunner,
  deleteAdminRunner,
  updateAdminRunner,
  listAdminWorkflowRuns,
  // Labels, milestones and issue search
  issueGetLabels,
  issueAddLabel,
  issueReplaceLabels,
  issueClearLabels,
  issueRemoveLabel,
  issueGetLabel,
  issueEditLabel,
  issueDeleteLabel,
  issueDeleteMilestone,
  orgListLabels,
  orgCreateLabel,
  orgGetLabel,
  orgEditLabel,
  orgDeleteLabel,
  issueSearchIssues,
  // People and organizations: the lists people walk, org/team administration
  userListRepos,
  orgListRepos,
  orgListCurrentUserOrgs,
  orgListUserOrgs,
  repoListCollaborators,
  repoCheckCollaborator,
  repoListTeams,
  orgListTeamMembers,
  orgListPublicMembers,
  orgIsPublicMember,
  orgPublicizeMember,
  orgConcealMember,
  orgDeleteMember,
  orgEdit,
  orgDelete,
  orgEditTeam,
  orgDeleteTeam,
  orgAddTeamRepository,
  orgRemoveTeamRepository,
  // Releases
  repoListReleases,
  repoCreateRelease,
  repoGetLatestRelease,
  repoGetReleaseByTag,
  repoDeleteReleaseByTag,
  repoGetRelease,
  repoEditRelease,
  repoDeleteRelease,
  repoListReleaseAttachments,
  repoCreateReleaseAttachment,
  repoGetReleaseAttachment,
  repoEditReleaseAttachment,
  repoDeleteReleaseAttachment,
  // Forks, stars and topics
  listForks,
  createFork,
  repoListStargazers,
  userCurrentListStarred,
  userCurrentCheckStarring,
  userCurrentPutStar,
  userCurrentDeleteStar,
  userListStarred,
  repoListTopics,
  repoUpdateTopics,
  repoAddTopic,
  repoDeleteTopic,
  topicSearch,
  // Files, commits and git data (#15)
  repoCreateFile,
  repoUpdateFile,
  repoDeleteFile,
  repoChangeFiles,
  repoGetAllCommits,
  repoGetSingleCommit,
  repoCompareDiff,
  repoListAllGitRefs,
  repoListGitRefs,
  GetTree,
  GetBlob,
  repoGetArchive,
  // avatars
  userUpdateAvatar,
  userDeleteAvatar,
  orgUpdateAvatar,
  orgDeleteAvatar,
};
