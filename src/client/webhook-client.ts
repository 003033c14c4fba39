/**
 * POSTing JSON to a webhook the kubeconfig names (the audit webhook, the authorization webhook),
 * as upstream's generic webhook client does: TLS from the kubeconfig, a 30 s timeout, and tries
 * again after a failure that looks passing (a connection reset, a timeout, 429, 500, 504, or any
 * answer with Retry-After), waiting the initial backoff, then 1.5 times longer each time (+0-20%),
 * five tries in all.
 */
import { Agent, request } from 'node:https';
import { sleep } from '../util/sleep.js';
import type { ClientConnection } from './kubeconfig.js';

const TRIES = 5;
const BACKOFF_FACTOR = 1.5;
const BACKOFF_JITTER = 0.2;
/** Upstream's webhook client timeout. */
export const WEBHOOK_TIMEOUT_MS = 30_000;

/** A failed POST; `retriable` when upstream's client would try again. */
export class WebhookError extends Error {
  constructor(message: string, readonly retriable: boolean) {
    super(message);
  }
}

export class WebhookClient {
  private readonly agent: Agent;
  private readonly url: URL;
  private readonly headers: Record<string, string>;

  constructor(connection: ClientConnection, private readonly timeoutMs: number = WEBHOOK_TIMEOUT_MS) {
    const c = connection;
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

  /**
   * POSTs `body` with retries; resolves with the 2xx answer's body. Rejects with the last
   * {@link WebhookError}. When `signal` aborts, a wait between tries ends at once (one more try).
   */
  async postWithRetries(body: string, initialBackoffMs: number, signal: AbortSignal): Promise<string> {
    let wait = initialBackoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.post(body);
      } catch (err) {
        if (attempt >= TRIES || !(err instanceof WebhookError) || !err.retriable) throw err;
        await sleep(wait * (1 + Math.random() * BACKOFF_JITTER), signal);
        wait *= BACKOFF_FACTOR;
      }
    }
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }

  private post(body: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const headers = { ...this.headers, 'Content-Length': String(Buffer.byteLength(body)) };
      const req = request(this.url, { method: 'POST', agent: this.agent, headers, timeout: this.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          if (code >= 200 && code < 300) return resolve(text);
          const message = `the server responded with the status code ${code} but did not return more information${text ? `: ${text.slice(0, 1024)}` : ''}`;
          reject(new WebhookError(message, code === 429 || code === 500 || code === 504 || res.headers['retry-after'] !== undefined));
        });
      });
      req.on('timeout', () => req.destroy(new WebhookError(`Post "${this.url.href}": context deadline exceeded`, true)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err instanceof WebhookError) return reject(err);
        reject(new WebhookError(`Post "${this.url.href}": ${err.message}`, err.code === 'ECONNRESET'));
      });
      req.end(body);
    });
  }
}
