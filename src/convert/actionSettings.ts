// Actions secrets (name, description and date: never the value) and variables as Gitea's API shows them.
import type { components } from '../../generated/openapi.js';
import type { ActionVariableRow } from '../db/schema/index.js';
import type { SecretView } from '../services/actions/settings.js';
import { iso } from './time.js';

type Schemas = components['schemas'];

export function toSecret(s: SecretView): Schemas['Secret'] {
  return { name: s.name, description: s.description, created_at: iso(s.createdAt) };
}

export function toActionVariable(v: ActionVariableRow): Schemas['ActionVariable'] {
  return { owner_id: v.ownerId, repo_id: v.repoId, name: v.name, data: v.data, description: v.description };
}
