// Hooks, deliveries and attempts → API JSON. The secret is never shown; a delivery's Authorization header is masked.
import type { components } from '../../generated/openapi.js';
import type { HookAttemptRow, HookDeliveryRow, HookRow } from '../db/schema/index.js';
import { iso, isoOrNull } from './time.js';

type Schemas = components['schemas'];

export function toHook(h: HookRow): Schemas['Hook'] {
  const config: Record<string, string> = { ...h.config, url: h.url, content_type: h.contentType };
  if (h.repoId === null && h.ownerId === null) config.is_system_webhook = String(h.isSystem);
  return {
    id: h.id,
    name: h.name,
    type: h.type as Schemas['Hook']['type'],
    active: h.active,
    authorization_header: h.authorizationHeader,
    branch_filter: h.branchFilter,
    config,
    events: h.events,
    created_at: iso(h.createdAt),
    updated_at: iso(h.updatedAt),
  };
}

export function toHookDelivery(d: HookDeliveryRow): Schemas['HookDelivery'] {
  return {
    id: d.id,
    guid: d.guid,
    event: d.event,
    event_type: d.eventType,
    state: d.state,
    attempts: d.attempts,
    status_code: d.lastStatus ?? 0,
    delivered_at: isoOrNull(d.finishedAt),
    next_attempt_at: d.state === 'pending' ? iso(d.dueAt) : null,
    created_at: iso(d.createdAt),
  };
}

export function toHookDeliveryDetail(d: HookDeliveryRow, attempts: HookAttemptRow[]): Schemas['HookDeliveryDetail'] {
  return {
    ...toHookDelivery(d),
    request: { payload: d.payload },
    attempts: attempts.map((a) => ({
      id: a.id,
      started_at: iso(a.startedAt),
      duration_ms: a.durationMs,
      url: a.url,
      request_headers: a.requestHeaders,
      status_code: a.responseStatus ?? 0,
      response_headers: a.responseHeaders ?? {},
      response_body: a.responseBody ?? '',
      error: a.error ?? '',
    })),
  };
}
