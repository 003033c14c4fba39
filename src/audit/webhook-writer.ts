/**
 * The audit webhook (--audit-webhook-config-file): each batch of events is POSTed as one EventList
 * to the server the kubeconfig names. A failure that looks passing (a connection reset, 429, 500,
 * 504, or any answer with Retry-After) is tried again after a growing wait, as upstream's webhook
 * client does: the initial backoff, then 1.5 times longer each time (±20%), five tries in all.
 */
import { Agent, request } from 'node:https';
import type { ClientConnection } from '../client/kubeconfig.js';
import { escapeLikeGo } from '../serialization/json-encode.js';
import { sleep } from '../util/sleep.js';
import { eventJson, type AuditEvent } from './event.js';
import type { EventWriter } from './event-writer.js';

export interface WebhookWriterOptions {
  readonly connection: ClientConnection;
  /** The version the events are written in (the EventList's apiVersion). */
  readonly apiVersion: string;
  readonly initialBackoffMs: number;
}

const TRIES = 5;
const BACKOFF_FACTOR = 1.5;
const BACKOFF_JITTER = 0.2;
const REQUEST_TIMEOUT_MS = 30_000;

export class WebhookWriter implements EventWriter {
  readonly plugin = 'webhook';
  private readonly agent: Agent;
  private readonly url: URL;
  private readonly headers: Record<string, string>;
  /** Sends not yet finished; close() waits for them. */
  private readonly sending = new Set<Promise<void>>();
  /** Aborted by close(): a send waiting to try again tries at once, so that stopping is not held up. */
  private readonly closing = new AbortController();

  constructor(private readonly options: WebhookWriterOptions) {
    const c = options.connection;
    this.url = new URL(c.server);
    this.agent = new Agent({
      keepAlive: true,
      ...(c.caPem !== undefined ? { ca: c.caPem } : {}),
      ...(c.certPem !== undefined ? { cert: c.certPem } : {}),
      ...(c.keyPem !== undefined ? { key: c.keyPem } : {}),
      ...(c.tlsServerName !== undefined ? { servername: c.tlsServerName } : {}),
      rejectUnauthorized: !c.insecureSkipTlsVerify,
    });
    this.headers = { 'Content-Type': 'application/json', Accept: 'application/json, */*' };
    if (c.bearerToken !== undefined) this.headers['Authorization'] = `Bearer ${c.bearerToken}`;
    else if (c.basic) this.headers['Authorization'] = `Basic ${Buffer.from(`${c.basic.username}:${c.basic.password}`).toString('base64')}`;
  }

  writeEvents(events: readonly AuditEvent[]): Promise<void> {
    const body = eventListJson(events, this.options.apiVersion);
    const sent = this.sendWithRetries(body).finally(() => this.sending.delete(sent));
    this.sending.add(sent);
    return sent;
  }

  async close(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([...this.sending]);
    this.agent.destroy();
  }

  private async sendWithRetries(body: string): Promise<void> {
    let wait = this.options.initialBackoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.send(body);
      } catch (err) {
        if (attempt >= TRIES || !(err instanceof RetriableError)) throw err;
        await sleep(wait * (1 + Math.random() * BACKOFF_JITTER), this.closing.signal);
        wait *= BACKOFF_FACTOR;
      }
    }
  }

  private send(body: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = request(this.url, { method: 'POST', agent: this.agent, headers: { ...this.headers, 'Content-Length': String(Buffer.byteLength(body)) }, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          if (code >= 200 && code < 300) return resolve();
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 1024);
          const message = `the server responded with the status code ${code} but did not return more information${text ? `: ${text}` : ''}`;
          const retriable = code === 429 || code === 500 || code === 504 || res.headers['retry-after'] !== undefined;
          reject(retriable ? new RetriableError(message) : new Error(message));
        });
      });
      req.on('timeout', () => req.destroy(new RetriableError(`Post "${this.url.href}": context deadline exceeded`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err instanceof RetriableError) return reject(err);
        const message = `Post "${this.url.href}": ${err.message}`;
        reject(err.code === 'ECONNRESET' ? new RetriableError(message) : new Error(message));
      });
      req.end(body);
    });
  }
}

/** A failure worth another try. */
class RetriableError extends Error {}

/** The batch as one EventList; its items carry no kind or apiVersion, as Go writes a typed list. */
export function eventListJson(events: readonly AuditEvent[], apiVersion: string): string {
  const items = events.map((event) => eventJson(event, null));
  return `{"kind":"EventList","apiVersion":${escapeLikeGo(JSON.stringify(apiVersion))},"metadata":{},"items":[${items.join(',')}]}`;
}
