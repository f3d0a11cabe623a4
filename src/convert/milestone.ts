import type { components } from '../../generated/openapi.js';
import type { MilestoneRow } from '../db/schema/index.js';
import { iso, isoOrNull } from './time.js';

export function toMilestone(m: MilestoneRow): components['schemas']['Milestone'] {
  return {
    id: m.id,
    title: m.name,
    description: m.description,
    state: m.isClosed ? 'closed' : 'open',
    open_issues: m.numIssues - m.numClosedIssues,
    closed_issues: m.numClosedIssues,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    closed_at: isoOrNull(m.closedAt),
    due_on: isoOrNull(m.dueOn),
  };
}
