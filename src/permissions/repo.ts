// The access a caller has to one repository, per unit. Pure: the grants are gathered by
// services/access.ts with a bounded number of queries, the rules live here.
import { accessModes, maxMode, minMode, rank, units, type AccessMode, type Unit } from '../db/schema/access.js';

export interface TeamGrant {
  /** The team-wide mode (admin and owner teams act on every unit). */
  mode: AccessMode;
  /** Per-unit modes of a team below admin. */
  units: Partial<Record<Unit, AccessMode>>;
}

export interface Grants {
  signedIn: boolean;
  siteAdmin: boolean;
  restricted: boolean;
  /** The caller owns the repository, or owns the organization that does. */
  owner: boolean;
  /** The caller may see the repository's owner (user or organization visibility). */
  ownerVisible: boolean;
  repoPrivate: boolean;
  teams: TeamGrant[];
  collaboration?: AccessMode;
  /** Units switched on for the repository; the others are none for everybody. */
  enabledUnits: ReadonlySet<Unit>;
}

export interface RepoPermission {
  /** Repository-wide mode: admin and above may change settings, collaborators and delete. */
  mode: AccessMode;
  units: Record<Unit, AccessMode>;
}

// External trackers and wikis only ever get read: nobody writes to another site through anvil.
const readOnlyUnits: ReadonlySet<Unit> = new Set(['repo.ext_issues', 'repo.ext_wiki']);

// Computed on every row of every repository list: the unit maps that depend on a mode only are made once
// and copied (a spread of a small object), never built again from arrays.
const everyUnit = new Map(accessModes.map((m) => [m, Object.freeze(Object.fromEntries(units.map((u) => [u, m])) as Record<Unit, AccessMode>)]));
const adminTeamUnits = new Map(accessModes.map((m) => [m, Object.freeze(Object.fromEntries(units.map((u) => [u, readOnlyUnits.has(u) ? 'read' : m])) as Record<Unit, AccessMode>)]));
const adminRank = rank('admin');

/** The unit modes of a team: admin teams get their mode everywhere but the external units. */
export function teamUnitModes(team: TeamGrant): Record<Unit, AccessMode> {
  if (rank(team.mode) >= adminRank) return { ...adminTeamUnits.get(team.mode)! };
  const out = {} as Record<Unit, AccessMode>;
  for (const u of units) out[u] = team.units[u] ?? 'none';
  return out;
}

/**
 * The permission of a team below admin (Gitea's MinUnitAccessMode): the least mode it grants, ignoring
 * units it does not grant (none) and the read-only external units unless they are all it has.
 */
export function leastGrantedMode(unitModes: Partial<Record<Unit, AccessMode>>): AccessMode {
  const granted = (Object.entries(unitModes) as Array<[Unit, AccessMode]>).filter(([, m]) => m !== 'none');
  const inner = granted.filter(([u]) => !readOnlyUnits.has(u));
  const pool = inner.length ? inner : granted;
  return pool.length ? pool.map(([, m]) => m).reduce(minMode) : 'none';
}

/** A team's repository-wide mode: its own for admin teams, else the least of the units it grants (Gitea 1.21). */
function teamRepoMode(team: TeamGrant): AccessMode {
  if (rank(team.mode) >= adminRank) return team.mode;
  return leastGrantedMode(team.units);
}

/** Every grant counts; the result is the maximum of them, unit by unit, and never more than one grant gives. */
export function repoPermission(g: Grants): RepoPermission {
  // On every list row of every request: one object, updated in place, and no map built per grant.
  let mode: AccessMode = 'none';
  const perUnit = { ...everyUnit.get('none')! };
  const grant = (m: AccessMode, unitModes: Readonly<Record<Unit, AccessMode>> | Partial<Record<Unit, AccessMode>>) => {
    mode = maxMode(mode, m);
    for (const k of units) {
      const u = unitModes[k];
      if (u !== undefined && rank(u) > rank(perUnit[k])) perUnit[k] = u;
    }
  };
  if (g.siteAdmin || g.owner) grant('owner', everyUnit.get('owner')!);
  // A public repository of a visible owner is readable by anyone allowed to look around:
  // anonymous callers included, restricted users excluded.
  if (!g.repoPrivate && g.ownerVisible && !g.restricted) grant('read', everyUnit.get('read')!);
  if (g.signedIn) {
    for (const t of g.teams) grant(teamRepoMode(t), rank(t.mode) >= adminRank ? adminTeamUnits.get(t.mode)! : t.units);
    if (g.collaboration) grant(g.collaboration, everyUnit.get(g.collaboration)!);
  }
  for (const u of units) if (!g.enabledUnits.has(u)) perUnit[u] = 'none';
  return { mode, units: perUnit };
}

export const canRead = (p: RepoPermission, unit: Unit) => rank(p.units[unit]) >= rank('read');
export const canWrite = (p: RepoPermission, unit: Unit) => rank(p.units[unit]) >= rank('write');
export const isRepoAdmin = (p: RepoPermission) => rank(p.mode) >= rank('admin');
/** Whether the caller may know the repository exists at all. */
export const canSeeRepo = (p: RepoPermission) => rank(p.mode) >= rank('read') || units.some((u) => canRead(p, u));

export { accessModes };
