// A team's permission and units from what a caller asked for (Gitea's rules), and the two reads of
// TeamService that the verbs in teamEdit.ts and teamRepos.ts need: shared below all three files.
import {
  minMode, rank, units, type AccessMode, type TeamRow, type Unit, type Visibility,
} from '../../db/schema/index.js';
import { leastGrantedMode, teamUnitModes } from '../../permissions/repo.js';
import { Invalid } from '../errors.js';

export interface CreateTeamInput {
  name: string;
  description?: string;
  permission?: 'read' | 'write' | 'admin' | 'owner' | string;
  units?: string[] | null;
  unitsMap?: Record<string, string> | null;
  includesAllRepositories?: boolean;
  canCreateOrgRepo?: boolean;
  visibility?: Visibility;
}

export interface TeamWithUnits {
  team: TeamRow;
  units: Partial<Record<Unit, AccessMode>>;
}

const isUnit = (u: string): u is Unit => (units as readonly string[]).includes(u);
const asMode = (m: string | undefined): AccessMode =>
  m === 'read' || m === 'write' || m === 'admin' || m === 'owner' ? m : 'none';

/** Gitea's rules: admin teams act on every unit; others get units_map, or `units` at the team's mode. */
export function teamUnitsFrom(input: CreateTeamInput): { mode: AccessMode; units: Partial<Record<Unit, AccessMode>> } {
  const mode = asMode(input.permission);
  if (rank(mode) >= rank('admin')) {
    return { mode, units: teamUnitModes({ mode, units: {} }) };
  }
  const out: Partial<Record<Unit, AccessMode>> = {};
  if (input.unitsMap && Object.keys(input.unitsMap).length) {
    // A unit cannot be given more than admin through a units map; owner is the org owners' alone.
    for (const [u, m] of Object.entries(input.unitsMap)) if (isUnit(u)) out[u] = minMode(asMode(m), 'admin');
  } else if (input.units?.length) {
    for (const u of input.units) if (isUnit(u)) out[u] = u.startsWith('repo.ext_') ? 'read' : mode === 'none' ? 'read' : mode;
  }
  const least = leastGrantedMode(out);
  if (least === 'none') throw new Invalid('units permission should not be empty');
  return { mode: least, units: out };
}

/** What teamEdit.ts and teamRepos.ts read through TeamService. */
export interface TeamLookups {
  unitsOf(teamIds: number[]): Promise<Map<number, Partial<Record<Unit, AccessMode>>>>;
  isMember(teamId: number, userId: number): Promise<boolean>;
}
