// An owner's package cleanup rules (Gitea's package_cleanup_rule, managed on its settings pages: Gitea 1.26
// has no API for them): who may manage them, the form's rules, one rule per owner and type, and the preview
// of what a rule removes (selectCleanupVersions, the `cleanup_packages` task's own selection).
import { and, asc, eq } from 'drizzle-orm';
import { packageCleanupRules, users, type PackageCleanupRuleRow, type UserRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Invalid, NotFound, isUniqueViolation } from '../errors.js';
import type { AccessService } from '../repos/access.js';
import { compileCleanupPattern, selectCleanupVersions, type CleanupCandidate } from './cleanupSelection.js';
import { isPackageType, packageTypes, type PackageType } from './packages.js';

/** The choices Gitea's form offers (and its binding accepts: `In(…)`). */
export const keepCountChoices = [0, 1, 5, 10, 25, 50, 100] as const;
export const removeDaysChoices = [0, 7, 14, 30, 60, 90, 180] as const;
/** The types a rule may be for: the formats anvil serves. */
export const cleanupRuleTypes: readonly PackageType[] = packageTypes;

export interface CleanupRuleInput {
  enabled: boolean;
  /** Only for a new rule: a rule keeps its type. */
  type?: string;
  keepCount: number;
  keepPattern: string;
  removeDays: number;
  removePattern: string;
  matchFullName: boolean;
}

/** A refused form: the field it is about, and the message shown beside it. */
export class CleanupRuleInvalid extends Invalid {
  constructor(readonly field: keyof CleanupRuleInput, message: string) {
    super(message);
  }
}

/** The type already has a rule (409): Gitea allows one rule per owner and type. */
export class CleanupRuleTaken extends Conflict {
  readonly field = 'type' as const;
}

const patternLimit = 255;

export class PackageCleanupRuleService {
  constructor(private readonly deps: ServiceDeps, private readonly access: AccessService) {}

  /**
   * Whether `actor` manages `owner`'s rules (Gitea's settings pages): a user themself, an organization's
   * owners, site administrators. Anyone else is told nothing (404), as Gitea's OrgAssignment does.
   */
  async requireManager(owner: UserRow, actor: UserRow): Promise<void> {
    if (!this.deps.config.packages.enabled) throw new NotFound();
    if (actor.isAdmin) return;
    if (owner.type !== 'Organization') {
      if (owner.id === actor.id) return;
      throw new NotFound();
    }
    if (!(await this.access.orgViewer(owner.id, actor)).isOwner) throw new NotFound();
  }

  /** The organization `name`, whose rules `actor` manages; 404 for no such organization, or anyone else. */
  async managedOrg(name: string, actor: UserRow): Promise<UserRow> {
    const [org] = await this.deps.db.select().from(users).where(eq(users.lowerName, name.toLowerCase()));
    if (!org || org.type !== 'Organization') throw new NotFound();
    await this.requireManager(org, actor);
    return org;
  }

  async list(ownerId: number): Promise<PackageCleanupRuleRow[]> {
    return this.deps.db.select().from(packageCleanupRules).where(eq(packageCleanupRules.ownerId, ownerId)).orderBy(asc(packageCleanupRules.type));
  }

  /** The owner's rule by id; 404 for another owner's (Gitea's getCleanupRuleByContext). */
  async get(ownerId: number, id: number): Promise<PackageCleanupRuleRow> {
    if (!Number.isSafeInteger(id) || id <= 0) throw new NotFound();
    const [rule] = await this.deps.db.select().from(packageCleanupRules).where(and(eq(packageCleanupRules.id, id), eq(packageCleanupRules.ownerId, ownerId)));
    if (!rule) throw new NotFound();
    return rule;
  }

  /** Gitea's PackageCleanupRuleForm binding: the choices, and patterns that compile. */
  validate(input: CleanupRuleInput, isNew: boolean): void {
    if (isNew && !isPackageType(input.type)) {
      throw new CleanupRuleInvalid('type', `type: must be one of ${cleanupRuleTypes.join(', ')}`);
    }
    if (!(keepCountChoices as readonly number[]).includes(input.keepCount)) {
      throw new CleanupRuleInvalid('keepCount', `keep_count: must be one of ${keepCountChoices.join(', ')}`);
    }
    if (!(removeDaysChoices as readonly number[]).includes(input.removeDays)) {
      throw new CleanupRuleInvalid('removeDays', `remove_days: must be one of ${removeDaysChoices.join(', ')}`);
    }
    for (const [field, name] of [['keepPattern', 'keep_pattern'], ['removePattern', 'remove_pattern']] as const) {
      if (input[field].length > patternLimit) throw new CleanupRuleInvalid(field, `${name}: at most ${patternLimit} characters`);
      try {
        compileCleanupPattern(input[field], name);
      } catch (err) {
        if (err instanceof Invalid) throw new CleanupRuleInvalid(field, err.message);
        throw err;
      }
    }
  }

  /** Adds the owner's rule for a type; 409 when the type has one (the unique index settles a race). */
  async create(ownerId: number, input: CleanupRuleInput): Promise<PackageCleanupRuleRow> {
    this.validate(input, true);
    const taken = () => new CleanupRuleTaken(`type: there is already a cleanup rule for ${input.type} packages`);
    const [existing] = await this.deps.db.select({ id: packageCleanupRules.id }).from(packageCleanupRules)
      .where(and(eq(packageCleanupRules.ownerId, ownerId), eq(packageCleanupRules.type, input.type!)));
    if (existing) throw taken();
    try {
      const [row] = await this.deps.db.insert(packageCleanupRules).values({ ownerId, type: input.type!, ...this.settings(input) }).returning();
      return row!;
    } catch (err) {
      if (isUniqueViolation(err)) throw taken();
      throw err;
    }
  }

  /** Changes everything but the type (Gitea keeps a rule's type); 404 when the rule is gone. */
  async update(ownerId: number, id: number, input: CleanupRuleInput): Promise<PackageCleanupRuleRow> {
    this.validate(input, false);
    const [row] = await this.deps.db.update(packageCleanupRules).set(this.settings(input))
      .where(and(eq(packageCleanupRules.id, id), eq(packageCleanupRules.ownerId, ownerId))).returning();
    if (!row) throw new NotFound();
    return row;
  }

  async remove(ownerId: number, id: number): Promise<void> {
    const gone = await this.deps.db.delete(packageCleanupRules).where(and(eq(packageCleanupRules.id, id), eq(packageCleanupRules.ownerId, ownerId))).returning({ id: packageCleanupRules.id });
    if (!gone.length) throw new NotFound();
  }

  /** What the rule would remove now: exactly the `cleanup_packages` task's selection. */
  preview(rule: PackageCleanupRuleRow): Promise<CleanupCandidate[]> {
    return selectCleanupVersions(this.deps.db, rule);
  }

  private settings(input: CleanupRuleInput) {
    return {
      enabled: input.enabled, keepCount: input.keepCount, keepPattern: input.keepPattern,
      removeDays: input.removeDays, removePattern: input.removePattern, matchFullName: input.matchFullName,
    };
  }
}
