// The service container handed to every handler.
import { closeObjectReaders } from '../git/catFile.js';
import { AccessService } from './repos/access.js';
import { AttachmentService } from './issues/attachments.js';
import { CommentService } from './issues/comments.js';
import { IssueService } from './issues/issues.js';
import { PullService } from './pulls/pulls.js';
import { LabelService } from './issues/labels.js';
import { MilestoneService } from './issues/milestones.js';
import { BranchService } from './git/branches.js';
import { ContentService } from './git/contents.js';
import { DiffPatchService } from './git/diffpatch.js';
import { TagService } from './git/gitTags.js';
import { StatusService } from './git/statuses.js';
import { GitTransportService } from './git/gitTransport.js';
import { CollaboratorService } from './repos/collaborators.js';
import { CronService } from './admin/cron.js';
import { cronTaskDefs } from './admin/cronTasks.js';
import { MaintenanceService } from './admin/maintenance.js';
import type { ServiceDeps } from './context.js';
// Fan-outs register themselves when their module loads.
import './events/activity.js';
import './events/hookFanOut.js';
import './notifications/notifier.js';
import { NotificationService } from './notifications/notifications.js';
import { WatchService } from './notifications/watches.js';
import { FeedService } from './events/feeds.js';
import { HookService } from './events/hooks.js';
import { OrgService } from './orgs/orgs.js';
import { RepoService } from './repos/repos.js';
import { TeamService } from './orgs/teams.js';
import { TokenService } from './users/tokens.js';
import { TransferService } from './repos/transfers.js';
import { UserService } from './users/users.js';
import { EmailService } from './users/emails.js';
import { UserAdminService } from './users/userAdmin.js';
import { WikiService } from './repos/wiki.js';
import { StopwatchService } from './times/stopwatches.js';
import { KeyService } from './keys/keys.js';
import { GpgKeyService } from './keys/gpgKeys.js';
import { ProjectColumnService } from './projects/columns.js';
import { ProjectService } from './projects/projects.js';
import { TimeService } from './times/times.js';

export class Services {
  readonly users: UserService;
  readonly tokens: TokenService;
  readonly emails: EmailService;
  readonly userAdmin: UserAdminService;
  readonly access: AccessService;
  readonly orgs: OrgService;
  readonly teams: TeamService;
  readonly repos: RepoService;
  readonly collaborators: CollaboratorService;
  readonly branches: BranchService;
  readonly diffpatch: DiffPatchService;
  readonly tags: TagService;
  readonly statuses: StatusService;
  readonly notifications: NotificationService;
  readonly watches: WatchService;
  readonly contents: ContentService;
  readonly gitTransport: GitTransportService;
  readonly wiki: WikiService;
  readonly transfers: TransferService;
  readonly issues: IssueService;
  readonly pulls: PullService;
  readonly times: TimeService;
  readonly keys: KeyService;
  readonly gpgKeys: GpgKeyService;
  readonly projects: ProjectService;
  readonly projectColumns: ProjectColumnService;
  readonly stopwatches: StopwatchService;
  readonly comments: CommentService;
  readonly milestones: MilestoneService;
  readonly labels: LabelService;
  readonly attachments: AttachmentService;
  readonly feeds: FeedService;
  readonly hooks: HookService;
  readonly maintenance: MaintenanceService;
  readonly cron: CronService;
  constructor(readonly deps: ServiceDeps) {
    this.users = new UserService(deps);
    this.issues = new IssueService(deps);
    this.comments = new CommentService(deps);
    this.milestones = new MilestoneService(deps);
    this.labels = new LabelService(deps);
    this.tokens = new TokenService(deps);
    this.emails = new EmailService(deps);
    this.access = new AccessService(deps);
    this.orgs = new OrgService(deps);
    this.teams = new TeamService(deps);
    this.repos = new RepoService(deps, this.access);
    this.collaborators = new CollaboratorService(deps, this.access);
    this.branches = new BranchService(deps);
    this.diffpatch = new DiffPatchService(deps, this.branches);
    this.tags = new TagService(deps, this.branches);
    this.statuses = new StatusService(deps, this.branches);
    this.contents = new ContentService(this.branches);
    this.keys = new KeyService(deps);
    this.gitTransport = new GitTransportService(deps, this.repos, this.branches, this.keys);
    this.wiki = new WikiService(deps);
    this.transfers = new TransferService(deps, this.access, this.repos, this.orgs, this.teams);
    this.attachments = new AttachmentService(deps, this.access, this.issues, this.comments);
    this.pulls = new PullService(deps, this.issues, this.access);
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
    this.maintenance = new MaintenanceService(deps, this.repos, this.hooks);
    this.cron = new CronService(deps, cronTaskDefs(this.maintenance));
    // Pull-request statistics follow their branches (pushes, diff patches, branch changes).
    this.branches.onChange((repoId, dir, actorId) => this.pulls.resyncRepo(repoId, dir, actorId));
  }

  /** Writes what is batched in memory (token uses); called before the database closes. */
  async close(): Promise<void> {
    await this.tokens.flushUses();
    closeObjectReaders();
  }
}
