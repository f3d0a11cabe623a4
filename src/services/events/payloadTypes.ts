// Webhook payloads as the services see them. The payloads are API JSON, built above the services by
// src/present/payloads.ts; the services reach that builder through ServiceDeps.payloads.
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { HookRow, RepoRow, UserRow } from '../../db/schema/index.js';
import type { RecordedEvent } from './types.js';

/** What a delivery carries: the X-Gitea-Event name, the JSON payload, and a one-line summary for chat hooks. */
export interface BuiltPayload {
  event: string;
  body: Record<string, unknown>;
  summary: { title: string; text: string; url: string; actor: string; repo: string };
}

export interface Payloads {
  /** The event's payload, read in `tx` (the recording transaction); undefined for an event hooks do not hear. */
  build(tx: Db, event: RecordedEvent, config: Config): Promise<BuiltPayload | undefined>;
  /** The payload of `POST .../hooks/{id}/tests`: a push of the default branch's tip. */
  testPush(repo: RepoRow, owner: UserRow, actor: UserRow, tip: { id: string; message: string; date: Date } | undefined, config: Config): BuiltPayload;
  /** The body as sent to one hook: its service's message, as JSON or `payload=<json>` for form hooks. */
  encode(hook: Pick<HookRow, 'type' | 'config' | 'contentType'>, built: Pick<BuiltPayload, 'body' | 'summary'>): string;
}
