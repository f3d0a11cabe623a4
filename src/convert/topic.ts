import type { components } from '../../generated/openapi.js';
import type { TopicHit } from '../services/repos/topics.js';
import { iso } from './time.js';

export function toTopic(t: TopicHit): components['schemas']['TopicResponse'] {
  return { id: t.id, topic_name: t.name, repo_count: t.repoCount, created: iso(t.created), updated: iso(t.updated) };
}
