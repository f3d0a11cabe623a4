import type { components } from '../../generated/openapi.js';
import type { BadgeRow } from '../db/schema/index.js';

export function toBadge(b: BadgeRow): components['schemas']['Badge'] {
  return { id: b.id, slug: b.slug, description: b.description, image_url: b.imageUrl };
}
