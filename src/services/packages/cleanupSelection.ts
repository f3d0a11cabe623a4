// Which versions an owner's package cleanup rule removes (Gitea's package_cleanup_rule): the one selection
// that both the `cleanup_packages` cron task (PackageService.cleanup) and the rule's preview page use, so
// the preview lists exactly what the task then removes.
//
// A rule's patterns are the owner's regular expressions, anchored and case-insensitive (Gitea compiles
// `(?i)\A…\z` with RE2, which runs in linear time). JavaScript's engine backtracks, so an owner could write
// a pattern that takes exponential time: every match runs in a `vm` script with a time limit, and the
// whole selection of one rule has a budget; past it the rule is skipped (PatternTooSlow).
import vm from 'node:vm';
import { and, desc, eq } from 'drizzle-orm';
import { packageFiles, packages, packageVersions, type PackageCleanupRuleRow, type PackageRow, type PackageVersionRow } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { Invalid } from '../errors.js';

/** What a rule selects: a version with its package. */
export interface CleanupCandidate {
  pkg: PackageRow;
  version: PackageVersionRow;
}

/** The time one rule's matching may take, in milliseconds, over all its versions. */
export const ruleMatchBudgetMs = 5000;

/** A pattern whose matching ran past the budget (a backtracking explosion). */
export class PatternTooSlow extends Invalid {
  constructor() {
    super('a pattern of the rule takes too long to match; make it simpler');
  }
}

/**
 * Compiles one of a rule's patterns as the task matches it (anchored, case-insensitive); undefined when
 * empty. Refuses (Invalid) what is not a regular expression, and what RE2 (Gitea's engine) would not read
 * either: look-arounds and back-references.
 */
export function compileCleanupPattern(pattern: string, field: string): RegExp | undefined {
  if (!pattern) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(pattern)) throw new Invalid(`${field}: control characters are not allowed`);
  if (/\(\?<?[=!]/.test(pattern)) throw new Invalid(`${field}: look-arounds are not supported`);
  if (/\\[1-9]|\\k</.test(pattern)) throw new Invalid(`${field}: back-references are not supported`);
  try {
    return new RegExp(`^(?:${pattern})$`, 'iu');
  } catch (err) {
    throw new Invalid(`${field}: the regular expression is invalid: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
}

const matchScript = new vm.Script('re.test(s)');

/** Runs a rule's matches in one sandbox, within a budget of matching time (queries between do not count). */
class BoundedMatcher {
  private readonly sandbox = vm.createContext({ re: null, s: '' });
  private left = ruleMatchBudgetMs;

  test(re: RegExp, subject: string): boolean {
    this.sandbox.re = re;
    this.sandbox.s = subject;
    const start = performance.now();
    try {
      return matchScript.runInContext(this.sandbox, { timeout: Math.max(1, Math.ceil(this.left)) }) === true;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new PatternTooSlow();
      throw err;
    } finally {
      this.left -= performance.now() - start;
      if (this.left <= 0) throw new PatternTooSlow();
    }
  }
}

/** The digests that a container image's versions name as files (an index's manifests, a manifest's blobs). */
async function referencedManifests(db: Db, packageId: number): Promise<Set<string>> {
  const rows = await db.select({ name: packageFiles.lowerName }).from(packageFiles)
    .innerJoin(packageVersions, eq(packageVersions.id, packageFiles.versionId))
    .where(and(eq(packageVersions.packageId, packageId), eq(packageVersions.isInternal, false), eq(packageFiles.isLead, false)));
  return new Set(rows.map((r) => r.name));
}

/**
 * The versions `rule` removes at `now`, package by package (by name), newest first. Per package, past the
 * `keep_count` newest versions, a version goes unless it matches `keep_pattern`, is younger than
 * `remove_days` (0: any age), or does not match `remove_pattern` (empty: any version); the subject is the
 * version, or `name/version` with `match_full_name`. A container image's `latest` and the manifests an
 * index names stay (Gitea's container rule). Disabled or not, the rule is applied as written: the task
 * asks only for enabled rules. Invalid for a pattern that does not compile, PatternTooSlow past the budget.
 */
export async function selectCleanupVersions(db: Db, rule: PackageCleanupRuleRow, now: Date = new Date()): Promise<CleanupCandidate[]> {
  const keep = compileCleanupPattern(rule.keepPattern, 'keep_pattern');
  const remove = compileCleanupPattern(rule.removePattern, 'remove_pattern');
  const before = rule.removeDays > 0 ? new Date(now.getTime() - rule.removeDays * 86_400_000) : undefined;
  const matcher = new BoundedMatcher();
  const out: CleanupCandidate[] = [];
  const pkgs = await db.select().from(packages).where(and(eq(packages.ownerId, rule.ownerId), eq(packages.type, rule.type))).orderBy(packages.lowerName);
  for (const pkg of pkgs) {
    const versions = await db.select().from(packageVersions).where(and(eq(packageVersions.packageId, pkg.id), eq(packageVersions.isInternal, false)))
      .orderBy(desc(packageVersions.createdAt), desc(packageVersions.id));
    const referenced = pkg.type === 'container' ? await referencedManifests(db, pkg.id) : new Set<string>();
    for (const [i, v] of versions.entries()) {
      if (i < rule.keepCount) continue;
      if (pkg.type === 'container' && (v.lowerVersion === 'latest' || referenced.has(String(v.metadata.digest)))) continue;
      const subject = rule.matchFullName ? `${pkg.lowerName}/${v.lowerVersion}` : v.lowerVersion;
      if (keep && matcher.test(keep, subject)) continue;
      if (before && v.createdAt >= before) continue;
      if (remove && !matcher.test(remove, subject)) continue;
      out.push({ pkg, version: v });
    }
  }
  return out;
}
