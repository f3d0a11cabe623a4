// The service container handed to every handler.
import { closeObjectReaders } from '../git/catFile.js';
import { closeStores } from '../storage/index.js';
import { LfsService } from './lfs/lfs.js';
import { ContainerRegistry } from './packages/container.js';
import { PackageService } from './packages/packages.js';
import { PackageCleanupRuleService } from './packages/cleanupRules.js';
import { readTogether, type JsonRead } from '../db/together.js';
import { AccessService } from './repos/access.js';
import { AttachmentService } from './issues/attachments.js';
import { CommentService } from './issues/comments.js';
import { IssueService } from './issues/issues.js';
import { PullService } from './pulls/pulls.js';
import { MergeService } from './pulls/merge.js';
import { BranchProtectionService } from './git/branchProtections.js';
import { PullChangeService } from './pulls/pullChanges.js';
import { ReviewService } from './pulls/reviews.js';
import { LabelService } from './issues/labels.js';
import { IssueLabelService } from './issues/issueLabels.js';
import { IssueSearchService } from './issues/search.js';
import { CodeIndexService } from './search/codeIndex.js';
import { RepoStatsService } from './repos/repoStats.js';
import { CodeSearchService } from './search/codeSearch.js';
import { MilestoneService } from './issues/milestones.js';
import { BranchService } from './git/branches.js';
import { ContentService } from './git/contents.js';
import { DiffPatchService } from './git/diffpatch.js';
import { FileChangeService } from './git/fileChanges.js';
import { GitDataService } from './git/gitData.js';
import { TagService } from './git/gitTags.js';
import { StatusService } from './git/statuses.js';
import { GitTransportService } from './git/gitTransport.js';
import { CollaboratorService } from './repos/collaborators.js';
import { CronService } from './admin/cron.js';
import { cronTaskDefs } from './admin/cronTasks.js';
import { MaintenanceService } from './admin/maintenance.js';
import type { ServiceDeps } from './context.js';
import { GitHookService } from './repos/gitHooks.js';
// Fan-outs register themselves when their module loads.
import './events/activity.js';
import './events/hookFanOut.js';
import './notifications/notifier.js';
import './actions/triggers.js';
import './issues/closeByReference.js';
import { ActionService } from './actions/runs.js';
import { ActionQueries } from './actions/queries.js';
import { RunnerService } from './actions/runners.js';
import { ArtifactService } from './actions/artifacts.js';
import { PipelineArtifacts } from './actions/pipelineArtifacts.js';
import { RepoActionService } from './actions/repoActions.js';
import { ActionUpkeep } from './actions/upkeep.js';
import { ActionSettingsService } from './actions/settings.js';
import { NotificationService } from './notifications/notifications.js';
import { WatchService } from './notifications/watches.js';
import { FeedService } from './events/feeds.js';
import { HookService } from './events/hooks.js';
import { OrgService } from './orgs/orgs.js';
import { RepoService } from './repos/repos.js';
import { UnadoptedService } from './repos/unadopted.js';
import { TeamService } from './orgs/teams.js';
import { MemberService } from './orgs/members.js';
import { TokenService } from './users/tokens.js';
import { TransferService } from './repos/transfers.js';
import { RedirectService } from './repos/redirects.js';
import { UserService } from './users/users.js';
import { EmailService } from './users/emails.js';
import { UserAdminService } from './users/userAdmin.js';
import { BadgeService } from './users/badges.js';
import { AvatarService } from './users/avatars.js';
import { WikiService } from './repos/wiki.js';
import { StopwatchService } from './times/stopwatches.js';
import { KeyService } from './keys/keys.js';
import { GpgKeyService } from './keys/gpgKeys.js';
import { CommitSigning, InstanceSigningKey } from './keys/commitSigning.js';
import { CommitVerifier } from './keys/verification.js';
import { ProjectColumnService } from './projects/columns.js';
import { ProjectService } from './projects/projects.js';
import { TimeService } from './times/times.js';
// Releases
import { ReleaseAssetService } from './releases/releaseAssets.js';
import { ReleaseService } from './releases/releases.js';
// Forks, stars and topics
import { ForkService } from './repos/forks.js';
import { TemplateService } from './repos/generate.js';
import { RepoAvatarService } from './repos/repoAvatars.js';
import { MigrationService } from './repos/migrations.js';
import { MirrorService } from './repos/mirrors.js';
import { PushMirrorService } from './repos/pushMirrors.js';
import { MergeUpstreamService } from './repos/mergeUpstream.js';
import { StarService } from './repos/stars.js';
import { FollowService } from './users/follows.js';
import { BlockService } from './users/blocks.js';
import { OrgLookupService } from './orgs/lookups.js';
import { TopicService } from './repos/topics.js';
// Rendering
import { MarkupService } from './markup/markup.js';
import { IssueThreadService } from './issues/issueThreads.js';
import { ReactionService } from './issues/reactions.js';
import { DependencyService } from './issues/dependencies.js';
import { PinService } from './issues/pins.js';
// OAuth2 provider, sign-in sessions, two-factor authentication
import { OAuthAppService } from './oauth/applications.js';
import { OAuthStore } from './oauth/store.js';
import { SessionService } from './users/sessions.js';
import { TwoFactorService } from './users/twoFactor.js';

export class Services {
  readonly users: UserService;
  readonly tokens: TokenService;
  readonly emails: EmailService;
  readonly userAdmin: UserAdminService;
  readonly badges: BadgeService;
  readonly access: AccessService;
  readonly orgs: OrgService;
  readonly teams: TeamService;
  readonly members: MemberService;
  readonly repos: RepoService;
  /** Folders in the repository root that no repository row owns (admin). */
  readonly unadopted: UnadoptedService;
  readonly collaborators: CollaboratorService;
  readonly branches: BranchService;
  readonly diffpatch: DiffPatchService;
  readonly files: FileChangeService;
  readonly gitData: GitDataService;
  readonly tags: TagService;
  readonly statuses: StatusService;
  readonly notifications: NotificationService;
  readonly watches: WatchService;
  readonly contents: ContentService;
  readonly gitTransport: GitTransportService;
  readonly lfs: LfsService;
  readonly packages: PackageService;
  /** Owners' package cleanup rules (the settings pages) and their preview. */
  readonly packageCleanupRules: PackageCleanupRuleService;
  /** The container registry (`/v2/`) over the packages. */
  readonly containers: ContainerRegistry;
  readonly wiki: WikiService;
  readonly transfers: TransferService;
  /** The old names of renamed and transferred repositories and renamed accounts. */
  readonly redirects: RedirectService;
  readonly issues: IssueService;
  readonly pulls: PullService;
  readonly merges: MergeService;
  readonly pullChanges: PullChangeService;
  readonly protections: BranchProtectionService;
  readonly reviews: ReviewService;
  readonly times: TimeService;
  readonly keys: KeyService;
  readonly gpgKeys: GpgKeyService;
  readonly verifier: CommitVerifier;
  /** The server's signing key and when the commits it writes are signed (docs/signing.md). */
  readonly commitSigning: CommitSigning;
  readonly projects: ProjectService;
  readonly projectColumns: ProjectColumnService;
  readonly stopwatches: StopwatchService;
  readonly comments: CommentService;
  readonly milestones: MilestoneService;
  readonly labels: LabelService;
  readonly issueLabels: IssueLabelService;
  readonly issueSearch: IssueSearchService;
  readonly codeSearch: CodeSearchService;
  readonly codeIndex: CodeIndexService;
  readonly repoStats: RepoStatsService;
  readonly attachments: AttachmentService;
  readonly feeds: FeedService;
  readonly hooks: HookService;
  readonly maintenance: MaintenanceService;
  readonly cron: CronService;
  readonly actions: ActionService;
  readonly actionQueries: ActionQueries;
  readonly runners: RunnerService;
  readonly artifacts: ArtifactService;
  /** The v1–v3 artifact protocol (/api/actions_pipeline). */
  readonly pipelineArtifacts: PipelineArtifacts;
  readonly repoActions: RepoActionService;
  /** Actions secrets and variables (repository, organization, user). */
  readonly actionSettings: ActionSettingsService;
  // Releases
  readonly releases: ReleaseService;
  readonly releaseAssets: ReleaseAssetService;
  readonly forks: ForkService;
  /** Repositories generated from template repositories (#39). */
  readonly templates: TemplateService;
  /** Repositories' custom server-side git hooks (#38). */
  readonly gitHooks: GitHookService;
  readonly repoAvatars: RepoAvatarService;
  /** Migrations, pull and push mirrors (#39). */
  readonly migrations: MigrationService;
  readonly mirrors: MirrorService;
  readonly pushMirrors: PushMirrorService;
  /** merge-upstream: a fork's branch brought up to date with its base (#39). */
  readonly mergeUpstream: MergeUpstreamService;
  readonly stars: StarService;
  readonly topics: TopicService;
  readonly avatars: AvatarService;
  readonly markup: MarkupService;
  readonly issueThreads: IssueThreadService;
  readonly reactions: ReactionService;
  readonly dependencies: DependencyService;
  readonly pins: PinService;
  readonly follows: FollowService;
  readonly blocks: BlockService;
  readonly orgLookups: OrgLookupService;
  // OAuth2 provider, sign-in sessions, two-factor authentication
  readonly oauthApps: OAuthAppService;
  readonly oauth: OAuthStore;
  readonly sessions: SessionService;
  readonly twoFactor: TwoFactorService;
  /** Two services' reads (their `…Read` methods) in one statement: see db/together.ts. */
  together<A, B>(a: JsonRead<A>, b: JsonRead<B>): Promise<[A, B]> {
    return readTogether(this.deps.db, a, b);
  }

  constructor(readonly deps: ServiceDeps) {
    const signingKey = new InstanceSigningKey(deps.config.signing);
    this.verifier = new CommitVerifier(deps, signingKey);
    this.commitSigning = new CommitSigning(deps, signingKey, this.verifier);
    this.users = new UserService(deps);
    this.issues = new IssueService(deps);
    this.comments = new CommentService(deps);
    this.milestones = new MilestoneService(deps);
    this.labels = new LabelService(deps);
    this.issueLabels = new IssueLabelService(deps, this.issues);
    this.issueSearch = new IssueSearchService(deps);
    this.codeSearch = new CodeSearchService(deps);
    this.codeIndex = new CodeIndexService(deps);
    this.repoStats = new RepoStatsService(deps);
    this.tokens = new TokenService(deps);
    this.emails = new EmailService(deps);
    this.access = new AccessService(deps);
    this.orgs = new OrgService(deps);
    this.teams = new TeamService(deps);
    this.members = new MemberService(deps);
    this.repos = new RepoService(deps, this.access, this.commitSigning);
    this.unadopted = new UnadoptedService(deps, this.access);
    this.markup = new MarkupService(deps, this.repos);
    this.collaborators = new CollaboratorService(deps, this.access);
    this.protections = new BranchProtectionService(deps);
    this.branches = new BranchService(deps, this.protections);
    this.diffpatch = new DiffPatchService(deps, this.branches, this.commitSigning);
    this.files = new FileChangeService(deps, this.branches, this.commitSigning);
    this.gitData = new GitDataService(this.branches);
    this.tags = new TagService(deps, this.branches);
    this.statuses = new StatusService(deps, this.branches);
    this.contents = new ContentService(this.branches);
    this.keys = new KeyService(deps);
    this.gitHooks = new GitHookService(deps);
    this.wiki = new WikiService(deps, this.commitSigning);
    this.gitTransport = new GitTransportService(deps, this.repos, this.branches, this.keys, this.wiki);
    this.lfs = new LfsService(deps, this.gitTransport, this.users, this.repos, this.contents);
    this.packages = new PackageService(deps, this.access);
    this.packageCleanupRules = new PackageCleanupRuleService(deps, this.access);
    this.containers = new ContainerRegistry(deps, this.packages);
    this.transfers = new TransferService(deps, this.access, this.repos, this.orgs, this.teams);
    this.redirects = new RedirectService(deps, this.access);
    this.attachments = new AttachmentService(deps, this.access, this.issues, this.comments);
    this.issueThreads = new IssueThreadService(deps, this.access, this.issues, this.attachments);
    this.reactions = new ReactionService(deps, this.issues, this.comments);
    this.dependencies = new DependencyService(deps, this.access, this.issues);
    this.pins = new PinService(deps, this.issues);
    this.pulls = new PullService(deps, this.issues, this.access);
    this.merges = new MergeService(this.pulls, this.branches, this.protections, this.commitSigning);
    this.pullChanges = new PullChangeService(this.pulls, this.branches, this.commitSigning);
    this.reviews = new ReviewService(deps, this.pulls, this.access);
    this.feeds = new FeedService(deps);
    this.hooks = new HookService(deps);
    this.notifications = new NotificationService(deps, this.access);
    this.watches = new WatchService(deps, this.access);
    this.times = new TimeService(deps, this.access);
    this.gpgKeys = new GpgKeyService(deps);
    this.projects = new ProjectService(deps, this.access);
    this.projectColumns = new ProjectColumnService(deps, this.access);
    this.stopwatches = new StopwatchService(deps, this.access);
    this.userAdmin = new UserAdminService(deps, this.repos);
    this.badges = new BadgeService(deps);
    this.avatars = new AvatarService(deps);
    this.follows = new FollowService(deps);
    this.blocks = new BlockService(deps);
    this.orgLookups = new OrgLookupService(deps);
    this.maintenance = new MaintenanceService(deps, this.repos, this.hooks);
    this.actions = new ActionService(deps);
    this.artifacts = new ArtifactService(deps, () => this.actionSettings.keys());
    this.pipelineArtifacts = new PipelineArtifacts(deps, this.artifacts);
    this.actionQueries = new ActionQueries(deps);
    this.actionSettings = new ActionSettingsService(deps);
    const secretKeys = () => this.actionSettings.keys();
    this.migrations = new MigrationService(deps, this.access, this.orgs, this.users, secretKeys);
    this.mirrors = new MirrorService(deps, this.branches, secretKeys);
    this.pushMirrors = new PushMirrorService(deps, secretKeys);
    this.mergeUpstream = new MergeUpstreamService(deps, this.access, this.branches, this.commitSigning);
    // update_mirrors: the pull mirrors due, then the push mirrors whose interval has come (as Gitea's task).
    const mirrorUpdates = { syncDue: async () => `${await this.mirrors.syncDue()}; ${await this.pushMirrors.syncDue()}` };
    this.cron = new CronService(deps, cronTaskDefs(this.maintenance, new ActionUpkeep(deps, this.actions, this.artifacts), this.lfs, mirrorUpdates, {
      cleanup: () => this.packages.cleanup(),
      removeAbandonedUploads: () => this.containers.removeAbandonedUploads(),
    }));
    this.runners = new RunnerService(deps, this.actions, this.actionSettings);
    this.repoActions = new RepoActionService(deps, this.actions, this.actionQueries);
    // Releases
    this.releases = new ReleaseService(deps, this.branches);
    this.releaseAssets = new ReleaseAssetService(deps, this.releases, this.attachments);
    this.forks = new ForkService(deps, this.access, this.orgs);
    this.repoAvatars = new RepoAvatarService(deps);
    this.templates = new TemplateService(deps, this.access, this.users, this.orgs, this.repos, this.repoAvatars, this.commitSigning);
    this.stars = new StarService(deps);
    this.topics = new TopicService(deps);
    // OAuth2 provider, sign-in sessions, two-factor authentication
    this.oauthApps = new OAuthAppService(deps);
    this.oauth = new OAuthStore(deps);
    this.sessions = new SessionService(deps);
    this.twoFactor = new TwoFactorService(deps, () => this.actionSettings.keys());
    // Pull-request statistics follow their branches (pushes, diff patches, branch changes).
    this.branches.onChange((repoId, dir, actorId) => this.pulls.resyncRepo(repoId, dir, actorId));
  }

  /** Writes what is batched in memory (token uses); called before the database closes. */
  async close(): Promise<void> {
    await this.tokens.flushUses();
    closeObjectReaders();
    await closeStores(this.deps.config);
  }
}
