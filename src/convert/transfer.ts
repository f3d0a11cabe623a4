import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { TransferView } from '../services/repos/transfers.js';
import { toTeam } from './team.js';
import { toUser } from './user.js';

type ApiRepoTransfer = components['schemas']['RepoTransfer'];

/** Teams without their organization, as Gitea's ToRepoTransfer (ToTeams(..., false)). */
export function toRepoTransfer(t: TransferView, viewer: UserRow | null, config: Config): ApiRepoTransfer {
  return {
    doer: toUser(t.doer, viewer, config),
    recipient: toUser(t.recipient, viewer, config),
    teams: t.teams.map(({ team, units }) => toTeam(team, units, null, viewer, config)),
  };
}
