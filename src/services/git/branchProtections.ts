// Branch protection rules (Gitea's ProtectedBranch): their CRUD for repository administrators, and the
// decisions every write of a branch asks for — may this user push (and force-push) to it, may they merge
// into it, and is a pull request ready to be merged under its rule. Pushes over git are checked by
// git's pre-receive hook with the decisions made here (pushRules), so HTTP and SSH obey the same rules.
import { and, eq, sql } from 'drizzle-orm';
import { rowsFromJson } from '../../db/jsonRows.js';
import { readAlone, type JsonRead } from '../../db/together.js';
import {
  branchProtections, type BranchProtectionRow, type ProtectionSettings, type PullReviewRow, type UserRow,
} from '../../db/schema/index.js';
import { canWrite, isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Forbidden, Invalid, isUniqueViolation, NotFound, RepoArchived } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { isListed, namesOf, teamIdsByName, userIdsByName } from './allowLists.js';
import { TagProtectionService } from './tagProtections.js';

/** Gitea's IsRuleNameSpecial: a rule name with glob characters protects every branch it matches. */
export const isGlobRule = (name: string) => /[*?[]/.test(name);

/** The regular expression (source) of a rule's glob: `*` within a path segment, `**` across, `?` one character. */
export function globSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*';
      i++;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}

export const ruleMatches = (rule: string, branch: string) => (isGlobRule(rule) ? new RegExp(`^${globSource(rule)}$`).test(branch) : rule === branch);

/** Exact names first, then globs by priority and age (Gitea's order). */
const order = (a: BranchProtectionRow, b: BranchProtectionRow) =>
  Number(isGlobRule(a.ruleName)) - Number(isGlobRule(b.ruleName)) || a.priority - b.priority || a.id - b.id;

export const defaultSettings = (): ProtectionSettings => ({
  enablePush: false, enablePushWhitelist: false, pushWhitelistUserIds: [], pushWhitelistTeamIds: [], pushWhitelistDeployKeys: false,
  enableForcePush: false, enableForcePushAllowlist: false, forcePushAllowlistUserIds: [], forcePushAllowlistTeamIds: [], forcePushAllowlistDeployKeys: false,
  enableMergeWhitelist: false, mergeWhitelistUserIds: [], mergeWhitelistTeamIds: [],
  enableStatusCheck: false, statusCheckContexts: [], requiredApprovals: 0,
  enableApprovalsWhitelist: false, approvalsWhitelistUserIds: [], approvalsWhitelistTeamIds: [],
  blockOnRejectedReviews: false, blockOnOfficialReviewRequests: false, blockOnOutdatedBranch: false,
  dismissStaleApprovals: false, ignoreStaleApprovals: false, blockAdminMergeOverride: false,
});

/** What the API sends: the settings with users and teams by name, each field optional. */
export type ProtectionInput = Partial<Omit<ProtectionSettings, `${string}Ids`>> & {
  priority?: number;
  pushWhitelistUsernames?: string[];
  pushWhitelistTeams?: string[];
  forcePushAllowlistUsernames?: string[];
  forcePushAllowlistTeams?: string[];
  mergeWhitelistUsernames?: string[];
  mergeWhitelistTeams?: string[];
  approvalsWhitelistUsernames?: string[];
  approvalsWhitelistTeams?: string[];
  requireSignedCommits?: boolean;
  protectedFilePatterns?: string;
  unprotectedFilePatterns?: string;
};

/** A rule with its users and teams named, for the API. */
export interface ProtectionView {
  row: BranchProtectionRow;
  userNames: Map<number, string>;
  teamNames: Map<number, string>;
}

const listFields = [
  ['pushWhitelistUsernames', 'pushWhitelistTeams', 'pushWhitelistUserIds', 'pushWhitelistTeamIds'],
  ['forcePushAllowlistUsernames', 'forcePushAllowlistTeams', 'forcePushAllowlistUserIds', 'forcePushAllowlistTeamIds'],
  ['mergeWhitelistUsernames', 'mergeWhitelistTeams', 'mergeWhitelistUserIds', 'mergeWhitelistTeamIds'],
  ['approvalsWhitelistUsernames', 'approvalsWhitelistTeams', 'approvalsWhitelistUserIds', 'approvalsWhitelistTeamIds'],
] as const;

export class BranchProtectionService {
  /** The tag protection rules, which pushes check beside these. */
  readonly tags: TagProtectionService;

  constructor(private readonly deps: ServiceDeps) {
    this.tags = new TagProtectionService(deps);
  }

  private requireAdmin(loaded: LoadedRepo): void {
    if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
  }

  async rules(repoId: number): Promise<BranchProtectionRow[]> {
    return readAlone(this.deps.db, this.rulesRead(repoId));
  }

  /** The repository's rules, in their order, as a read that may go with another (db/together.ts). */
  rulesRead(repoId: number): JsonRead<BranchProtectionRow[]> {
    return {
      sql: sql`select coalesce(json_agg(row_to_json(${branchProtections})), '[]'::json) from ${branchProtections} where ${eq(branchProtections.repoId, repoId)}`,
      map: (json) => rowsFromJson(branchProtections, json as Array<Record<string, unknown>>).sort(order),
    };
  }

  /** The rule that protects `branch`, if any. */
  async ruleFor(repoId: number, branch: string, rules?: BranchProtectionRow[]): Promise<BranchProtectionRow | undefined> {
    return (rules ?? (await this.rules(repoId))).find((r) => ruleMatches(r.ruleName, branch));
  }

  async list(loaded: LoadedRepo): Promise<ProtectionView[]> {
    this.requireAdmin(loaded);
    return this.views(await this.rules(loaded.repo.id));
  }

  async get(loaded: LoadedRepo, name: string): Promise<ProtectionView> {
    this.requireAdmin(loaded);
    return (await this.views([await this.byName(loaded, name)]))[0]!;
  }

  private async byName(loaded: LoadedRepo, name: string): Promise<BranchProtectionRow> {
    const [row] = await this.deps.db.select().from(branchProtections).where(and(eq(branchProtections.repoId, loaded.repo.id), eq(branchProtections.ruleName, name)));
    if (!row) throw new NotFound();
    return row;
  }

  async create(loaded: LoadedRepo, ruleName: string, input: ProtectionInput): Promise<ProtectionView> {
    this.requireAdmin(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (!ruleName.trim()) throw new BadRequest('both rule_name and branch_name are empty');
    const settings = await this.apply(loaded, defaultSettings(), input);
    try {
      const [row] = await this.deps.db.insert(branchProtections)
        // A rule made without a priority goes last (Gitea: the repository's highest priority + 1).
        .values({
          repoId: loaded.repo.id, ruleName, settings,
          priority: input.priority || sql`(select coalesce(max(${branchProtections.priority}), 0) + 1 from ${branchProtections} where ${eq(branchProtections.repoId, loaded.repo.id)})`,
        })
        .returning();
      return (await this.views([row!]))[0]!;
    } catch (err) {
      if (isUniqueViolation(err)) throw new Forbidden('Branch protection already exist');
      throw err;
    }
  }

  async edit(loaded: LoadedRepo, name: string, input: ProtectionInput): Promise<ProtectionView> {
    this.requireAdmin(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    const current = await this.byName(loaded, name);
    const settings = await this.apply(loaded, current.settings, input);
    const [row] = await this.deps.db.update(branchProtections)
      .set({ settings, priority: input.priority ?? current.priority, updatedAt: new Date() })
      .where(eq(branchProtections.id, current.id))
      .returning();
    return (await this.views([row!]))[0]!;
  }

  async delete(loaded: LoadedRepo, name: string): Promise<void> {
    this.requireAdmin(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    const gone = await this.deps.db.delete(branchProtections)
      .where(and(eq(branchProtections.repoId, loaded.repo.id), eq(branchProtections.ruleName, name)))
      .returning({ id: branchProtections.id });
    if (!gone.length) throw new NotFound();
  }

  /**
   * Gitea's UpdateProtectBranchPriorities: the listed rules get priorities 1, 2, … in the list's order, in one
   * statement; ids of other repositories' rules (or of none) change nothing, rules not listed keep theirs.
   */
  async setPriorities(loaded: LoadedRepo, ids: number[]): Promise<void> {
    this.requireAdmin(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (new Set(ids).size !== ids.length) throw new Invalid('[ids]: a protection rule is listed more than once');
    if (!ids.length) return;
    const values = sql.join(ids.map((id, i) => sql`(${id}::bigint, ${i + 1}::bigint)`), sql`, `);
    await this.deps.db.execute(sql`update ${branchProtections} set priority = v.p from (values ${values}) as v(id, p)
      where ${branchProtections.id} = v.id and ${branchProtections.repoId} = ${loaded.repo.id}`);
  }

  /** The given fields over `base`; whitelisted names resolved to ids (422 for unknown ones). */
  private async apply(loaded: LoadedRepo, base: ProtectionSettings, input: ProtectionInput): Promise<ProtectionSettings> {
    if (input.requireSignedCommits) throw new Invalid('[require_signed_commits]: not supported by anvil yet');
    if (input.protectedFilePatterns?.trim()) throw new Invalid('[protected_file_patterns]: not supported by anvil yet');
    if (input.unprotectedFilePatterns?.trim()) throw new Invalid('[unprotected_file_patterns]: not supported by anvil yet');
    const out: ProtectionSettings = { ...base };
    for (const key of Object.keys(base) as Array<keyof ProtectionSettings>) {
      const given = (input as Record<string, unknown>)[key];
      if (given !== undefined && !key.endsWith('Ids')) (out as unknown as Record<string, unknown>)[key] = given;
    }
    if (input.statusCheckContexts) out.statusCheckContexts = [...new Set(input.statusCheckContexts.map((c) => c.trim()).filter(Boolean))];
    const isOrg = loaded.owner.type === 'Organization';
    for (const [names, teamNames, ids, teamIds] of listFields) {
      if (input[names]) out[ids] = await this.userIds(input[names]!);
      // Teams belong to organizations; on a user's repository Gitea ignores them.
      if (input[teamNames]) out[teamIds] = isOrg ? await this.teamIds(loaded.owner.id, input[teamNames]!) : [];
    }
    return out;
  }

  private userIds(names: string[]): Promise<number[]> {
    return userIdsByName(this.deps.db, names);
  }

  private teamIds(orgId: number, names: string[]): Promise<number[]> {
    return teamIdsByName(this.deps.db, orgId, names);
  }

  private async views(rows: BranchProtectionRow[]): Promise<ProtectionView[]> {
    const userIds = rows.flatMap((r) => listFields.flatMap(([, , ids]) => r.settings[ids]));
    const teamIds = rows.flatMap((r) => listFields.flatMap(([, , , ids]) => r.settings[ids]));
    const { userNames, teamNames } = await namesOf(this.deps.db, userIds, teamIds);
    return rows.map((row) => ({ row, userNames, teamNames }));
  }

  private listed(userId: number, userIds: number[], teamIds: number[]): Promise<boolean> {
    return isListed(this.deps.db, userId, userIds, teamIds);
  }

  /** Gitea's CanUserPush: pushes enabled, and the caller a code writer (on the whitelist when it is enabled). */
  async canPush(loaded: LoadedRepo, rule: BranchProtectionRow | undefined, user: UserRow | null): Promise<boolean> {
    if (!user || !canWrite(loaded.perm, 'repo.code')) return false;
    if (!rule) return true;
    const s = rule.settings;
    if (!s.enablePush) return false;
    return !s.enablePushWhitelist || this.listed(user.id, s.pushWhitelistUserIds, s.pushWhitelistTeamIds);
  }

  async canForcePush(loaded: LoadedRepo, rule: BranchProtectionRow, user: UserRow): Promise<boolean> {
    const s = rule.settings;
    if (!s.enableForcePush || !(await this.canPush(loaded, rule, user))) return false;
    return !s.enableForcePushAllowlist || this.listed(user.id, s.forcePushAllowlistUserIds, s.forcePushAllowlistTeamIds);
  }

  /** Gitea's IsUserAllowedToMerge: a code writer, or on the merge whitelist when it is enabled. */
  async canMerge(loaded: LoadedRepo, rule: BranchProtectionRow | undefined, user: UserRow | null): Promise<boolean> {
    if (!user) return false;
    if (!rule || !rule.settings.enableMergeWhitelist) return canWrite(loaded.perm, 'repo.code');
    return this.listed(user.id, rule.settings.mergeWhitelistUserIds, rule.settings.mergeWhitelistTeamIds);
  }

  /**
   * The rules of one push for git's pre-receive hook, one line each, first match wins: `<mode>\t<regexp>`
   * with mode `deny` (no push), `noforce` (fast-forwards only) or `force`; deletion is always refused.
   * A deploy key pushes when the rule lets deploy keys push (and force-push).
   */
  async pushRules(loaded: LoadedRepo, pusher: UserRow, viaDeployKey = false): Promise<string> {
    const rules = await this.rules(loaded.repo.id);
    const lines: string[] = [];
    for (const rule of rules) {
      const s = rule.settings;
      let mode: 'deny' | 'noforce' | 'force';
      if (viaDeployKey) {
        const push = s.enablePush && (!s.enablePushWhitelist || s.pushWhitelistDeployKeys);
        const force = push && s.enableForcePush && (!s.enableForcePushAllowlist || s.forcePushAllowlistDeployKeys);
        mode = !push ? 'deny' : force ? 'force' : 'noforce';
      } else {
        mode = !(await this.canPush(loaded, rule, pusher)) ? 'deny' : (await this.canForcePush(loaded, rule, pusher)) ? 'force' : 'noforce';
      }
      lines.push(`${mode}\t${isGlobRule(rule.ruleName) ? globSource(rule.ruleName) : rule.ruleName.replace(/[.+*?^${}()|[\]\\]/g, '\\$&')}`);
    }
    return lines.join('\n');
  }

  /**
   * Whether a pull request into a protected branch may be merged now (Gitea's CheckPullBranchProtections):
   * the status checks, the approvals, no official request for changes or pending official review request,
   * the head up to date with the base. Answers the first reason it may not, or undefined.
   */
  /**
   * The approvals that count under `rule` (Gitea's GetGrantedApprovalsCount): each reviewer's latest
   * submitted review, an approval not gone stale, by an official reviewer or one on the approvals list.
   */
  async grantedApprovals(rule: BranchProtectionRow, reviews: PullReviewRow[], headSha: string): Promise<number> {
    const s = rule.settings;
    const approvers = latestReviews(reviews).filter((r) => r.type === 'approve' && !((s.dismissStaleApprovals || s.ignoreStaleApprovals) && r.commitId !== headSha));
    let approvals = 0;
    for (const r of approvers) {
      if (s.enableApprovalsWhitelist) {
        if (await this.listed(r.reviewerId!, s.approvalsWhitelistUserIds, s.approvalsWhitelistTeamIds)) approvals++;
      } else if (r.official) approvals++;
    }
    return approvals;
  }

  async mergeBlocker(
    rule: BranchProtectionRow,
    pr: { headSha: string; headContainsBase: boolean; headState: (contexts: string[]) => Promise<string>; reviews: PullReviewRow[] },
  ): Promise<string | undefined> {
    const s = rule.settings;
    if (s.enableStatusCheck && s.statusCheckContexts.length) {
      const state = await pr.headState(s.statusCheckContexts);
      if (state !== 'success') return 'Not all required status checks successful';
    }
    const counted = latestReviews(pr.reviews);
    const approvals = await this.grantedApprovals(rule, pr.reviews, pr.headSha);
    if (approvals < s.requiredApprovals) return `Does not have enough approvals (${approvals} of ${s.requiredApprovals})`;
    if (s.blockOnRejectedReviews && counted.some((r) => r.type === 'reject' && r.official)) return 'There are official requests for changes';
    if (s.blockOnOfficialReviewRequests && counted.some((r) => r.type === 'request')) return 'There are official review requests';
    if (s.blockOnOutdatedBranch && !pr.headContainsBase) return 'The head branch is behind the base branch';
    return undefined;
  }
}

/** The latest submitted review of each reviewer: what counts. */
function latestReviews(reviews: PullReviewRow[]): PullReviewRow[] {
  const latest = new Map<number, PullReviewRow>();
  for (const r of reviews) if (r.reviewerId && r.type !== 'pending' && r.type !== 'comment' && !r.dismissed) latest.set(r.reviewerId, r);
  return [...latest.values()];
}
