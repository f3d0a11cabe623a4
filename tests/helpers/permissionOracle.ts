// A small, deliberately naive restatement of the permission model (issue 3 and the Gitea reference,
// §6 of gitea-endpoints-01-20.md), used as the oracle of the permission property tests. It shares no
// code with src/permissions: each grant's contribution is computed on its own, and the answer is the
// maximum of the contributions, unit by unit.

export const MODES = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type Mode = (typeof MODES)[number];

export const UNITS = [
  'repo.code', 'repo.issues', 'repo.pulls', 'repo.releases', 'repo.wiki',
  'repo.projects', 'repo.packages', 'repo.actions', 'repo.ext_issues', 'repo.ext_wiki',
] as const;
export type UnitName = (typeof UNITS)[number];

/** The external tracker and wiki: only ever read for admin teams, and left out of a team's least mode. */
export const EXTERNAL: readonly UnitName[] = ['repo.ext_issues', 'repo.ext_wiki'];

export const rankOf = (m: Mode): number => MODES.indexOf(m);
export const strongest = (modes: Mode[]): Mode => modes.reduce<Mode>((a, b) => (rankOf(b) > rankOf(a) ? b : a), 'none');
export const weakest = (modes: Mode[]): Mode => modes.reduce<Mode>((a, b) => (rankOf(b) < rankOf(a) ? b : a), 'owner');
const everyUnit = (m: Mode) => Object.fromEntries(UNITS.map((u) => [u, m])) as Record<UnitName, Mode>;

export interface OracleTeam {
  mode: Mode;
  units: Partial<Record<UnitName, Mode>>;
}

export interface OracleGrants {
  signedIn: boolean;
  siteAdmin: boolean;
  restricted: boolean;
  owner: boolean;
  ownerVisible: boolean;
  repoPrivate: boolean;
  teams: OracleTeam[];
  collaboration?: Mode;
  enabledUnits: ReadonlySet<UnitName>;
}

export interface Contribution {
  name: string;
  mode: Mode;
  units: Record<UnitName, Mode>;
}

/**
 * A team's permission (Gitea 1.21, MinUnitAccessMode): admin and owner teams have their own; the others
 * the least mode among the units they are granted (not none), external units aside unless they are all
 * it has; none when nothing is granted.
 */
export function teamPermission(team: OracleTeam): Mode {
  if (rankOf(team.mode) >= rankOf('admin')) return team.mode;
  const granted = (Object.entries(team.units) as Array<[UnitName, Mode]>).filter(([, m]) => m !== 'none');
  const inner = granted.filter(([u]) => !EXTERNAL.includes(u));
  const pool = inner.length ? inner : granted;
  return pool.length ? weakest(pool.map(([, m]) => m)) : 'none';
}

/** A team's mode on each unit: admin teams their mode everywhere but read on the external units; the others their own unit modes. */
export function teamUnits(team: OracleTeam): Record<UnitName, Mode> {
  if (rankOf(team.mode) >= rankOf('admin')) {
    return Object.fromEntries(UNITS.map((u) => [u, EXTERNAL.includes(u) ? 'read' : team.mode])) as Record<UnitName, Mode>;
  }
  return Object.fromEntries(UNITS.map((u) => [u, team.units[u] ?? 'none'])) as Record<UnitName, Mode>;
}

/** Every grant the caller holds, each on its own. */
export function contributions(g: OracleGrants): Contribution[] {
  const out: Contribution[] = [];
  if (g.siteAdmin) out.push({ name: 'site admin', mode: 'owner', units: everyUnit('owner') });
  if (g.owner) out.push({ name: 'owner', mode: 'owner', units: everyUnit('owner') });
  if (!g.repoPrivate && g.ownerVisible && !g.restricted) out.push({ name: 'public', mode: 'read', units: everyUnit('read') });
  if (g.signedIn) {
    g.teams.forEach((t, i) => out.push({ name: `team ${i}`, mode: teamPermission(t), units: teamUnits(t) }));
    if (g.collaboration) out.push({ name: 'collaboration', mode: g.collaboration, units: everyUnit(g.collaboration) });
  }
  return out;
}

export interface OraclePermission {
  mode: Mode;
  units: Record<UnitName, Mode>;
  visible: boolean;
}

/** The maximum of every grant, unit by unit; disabled units are none for everybody. */
export function expectedPermission(g: OracleGrants): OraclePermission {
  const cs = contributions(g);
  const mode = strongest(cs.map((c) => c.mode));
  const units = Object.fromEntries(
    UNITS.map((u) => [u, g.enabledUnits.has(u) ? strongest(cs.map((c) => c.units[u])) : 'none']),
  ) as Record<UnitName, Mode>;
  const visible = rankOf(mode) >= rankOf('read') || UNITS.some((u) => rankOf(units[u]) >= rankOf('read'));
  return { mode, units, visible };
}

/** Who sees an organization (or a user) of this visibility. */
export function ownerVisibleTo(visibility: 'public' | 'limited' | 'private', v: { signedIn: boolean; siteAdmin: boolean; restricted: boolean; member: boolean }): boolean {
  if (v.siteAdmin || v.member || visibility === 'public') return true;
  return visibility === 'limited' && v.signedIn && !v.restricted;
}

export interface TeamInputLike {
  permission?: string;
  units?: string[] | null;
  unitsMap?: Record<string, string> | null;
}

/**
 * What a created team holds (reference §6): admin and owner teams act on every unit (read on the external
 * ones) and ignore units/units_map; below admin a non-empty units_map gives each known unit its own mode
 * (at most admin, unknown modes none), else each listed unit gets the team's permission (read when none is
 * given; the external ones read). Undefined when nothing is granted: the service refuses the team.
 */
export function expectedTeam(input: TeamInputLike): OracleTeam | undefined {
  const parsed: Mode = (['read', 'write', 'admin', 'owner'] as const).find((m) => m === input.permission) ?? 'none';
  if (rankOf(parsed) >= rankOf('admin')) return { mode: parsed, units: teamUnits({ mode: parsed, units: {} }) };
  const known = (u: string): u is UnitName => (UNITS as readonly string[]).includes(u);
  const units: Partial<Record<UnitName, Mode>> = {};
  if (input.unitsMap && Object.keys(input.unitsMap).length) {
    for (const [u, m] of Object.entries(input.unitsMap)) {
      if (!known(u)) continue;
      const mode: Mode = (['read', 'write', 'admin', 'owner'] as const).find((x) => x === m) ?? 'none';
      units[u] = mode === 'owner' ? 'admin' : mode;
    }
  } else {
    for (const u of input.units ?? []) {
      if (known(u)) units[u] = EXTERNAL.includes(u) ? 'read' : parsed === 'none' ? 'read' : parsed;
    }
  }
  if (!Object.values(units).some((m) => m !== 'none')) return undefined;
  const team: OracleTeam = { mode: 'none', units };
  return { mode: teamPermission(team), units };
}
