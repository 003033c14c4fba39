/**
 * The audit webhook (--audit-webhook-config-file): each batch of events is POSTed as one EventList
 * to the server the kubeconfig names, tried again as upstream's webhook client does (see
 * webhook-client.ts), the first wait being --audit-webhook-initial-backoff.
 */
import type { ClientConnection } from '../client/kubeconfig.js';
import { WebhookClient } from '../client/webhook-client.js';
import { escapeLikeGo } from '../serialization/json-encode.js';
import { eventJson, type AuditEvent } from './event.js';
import type { EventWriter } from './event-writer.js';

export interface WebhookWriterOptions {
  readonly connection: ClientConnection;
  /** The version the events are written in (the EventList's apiVersion). */
  readonly apiVersion: string;
  readonly initialBackoffMs: number;
}

export class WebhookWriter implements EventWriter {
  readonly plugin = 'webhook';
  private readonly client: WebhookClient;
  /** Sends not yet finished; close() waits for them. */
  private readonly sending = new Set<Promise<void>>();
  /** Aborted by close(): a send waiting to try again tries at once, so that stopping is not held up. */
  private readonly closing = new AbortController();

  constructor(private readonly options: WebhookWriterOptions) {
    this.client = new WebhookClient(options.connection);
  }

  writeEvents(events: readonly AuditEvent[]): Promise<void> {
    const body = eventListJson(events, this.options.apiVersion);
    const sent = this.client.postWithRetries(body, this.options.initialBackoffMs, this.closing.signal).then(() => undefined);
    const tracked = sent.finally(() => this.sending.delete(tracked));
    this.sending.add(tracked);
    return tracked;
  }

  async close(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([...this.sending]);
    this.client.close();
  }
}

/** The batch as one EventList; its items carry no kind or apiVersion, as Go writes a typed list. */
export function eventListJson(events: readonly AuditEvent[], apiVersion: string): string {
  const items = events.map((event) => eventJson(event, null));
  return `{"kind":"EventList","apiVersion":${escapeLikeGo(JSON.stringify(apiVersion))},"metadata":{},"items":[${items.join(',')}]}`;
}
