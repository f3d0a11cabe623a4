import type { components } from '../../generated/openapi.js';
import type { LabelRow } from '../db/schema/index.js';

export function toLabel(l: LabelRow, repoApi: string): components['schemas']['Label'] {
  return {
    id: l.id,
    name: l.name,
    exclusive: l.exclusive,
    is_archived: l.isArchived,
    color: l.color.replace(/^#/, ''),
    description: l.description,
    url: `${repoApi}/labels/${l.id}`,
  };
}
