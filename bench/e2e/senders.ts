/**
 * How a closed-loop job's clients reach the server: HTTP/1.1 with one keep-alive connection per
 * client (what most HTTP libraries do), or HTTP/2 with every client a stream on one shared
 * connection (what client-go and kubectl do).
 */
import { constants, type ClientHttp2Session } from 'node:http2';
import type { SecureContext } from 'node:tls';
import { Http1Connection } from './http1-connection.js';
import { connectHttp2, http2Headers, secureContextFor, type OutgoingRequest, type Reply } from './https-client.js';
import type { Target } from './target.js';

export type Protocol = 'http/1.1' | 'h2';

export interface Sender {
  send(req: OutgoingRequest, keepBody: boolean): Promise<Reply>;
  close(): void;
}

/** A sender for `concurrency` clients over `protocol`; resolves once an HTTP/2 session is up. */
export async function openSender(target: Target, protocol: Protocol, concurrency: number): Promise<Sender> {
  if (protocol === 'h2') return Http2Sender.connect(target);
  return new Http1Sender(target, concurrency);
}

/**
 * Keep-alive HTTP/1.1 connections (http1-connection.ts), one request at a time each: a request
 * takes an idle connection, or opens one while fewer than `maxConnections` are open.
 */
class Http1Sender implements Sender {
  private readonly secureContext: SecureContext;
  private readonly idle: Http1Connection[] = [];
  private readonly all = new Set<Http1Connection>();
  /** Requests waiting for a connection while all `maxConnections` are busy. */
  private readonly queued: Array<{ resolve: (connection: Http1Connection) => void; reject: (err: unknown) => void }> = [];
  private opening = 0;

  constructor(
    private readonly target: Target,
    private readonly maxConnections: number,
  ) {
    // One context for every connection: parsing the PEMs costs ~2.6 ms each.
    this.secureContext = secureContextFor(target);
  }

  async send(req: OutgoingRequest, keepBody: boolean): Promise<Reply> {
    const connection = await this.take();
    try {
      return await connection.request(req, keepBody ? Infinity : 0);
    } finally {
      this.giveBack(connection);
    }
  }

  close(): void {
    for (const connection of this.all) connection.close();
    this.all.clear();
    this.idle.length = 0;
    // Requests still waiting for a connection would otherwise wait for ever.
    for (const waiting of this.queued.splice(0)) waiting.reject(new Error('the sender was closed'));
  }

  private async take(): Promise<Http1Connection> {
    for (let c = this.idle.pop(); c !== undefined; c = this.idle.pop()) {
      if (c.usable) return c;
      this.all.delete(c);
    }
    if (this.all.size + this.opening >= this.maxConnections) return new Promise((resolve, reject) => this.queued.push({ resolve, reject }));
    this.opening++;
    try {
      const connection = await Http1Connection.open(this.target, this.secureContext);
      this.all.add(connection);
      return connection;
    } finally {
      this.opening--;
    }
  }

  private giveBack(connection: Http1Connection): void {
    if (!connection.usable) {
      this.all.delete(connection);
      connection.close();
      // A waiting request opens a new connection in the place of this one.
      const waiting = this.queued.shift();
      if (waiting !== undefined) this.take().then(waiting.resolve, waiting.reject);
      return;
    }
    const waiting = this.queued.shift();
    if (waiting !== undefined) waiting.resolve(connection);
    else this.idle.push(connection);
  }
}

class Http2Sender implements Sender {
  private constructor(private readonly session: ClientHttp2Session, private readonly target: Target) {}

  static async connect(target: Target): Promise<Http2Sender> {
    return new Http2Sender(await connectHttp2(target), target);
  }

  send(req: OutgoingRequest, keepBody: boolean): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {
        [constants.HTTP2_HEADER_METHOD]: req.method,
        [constants.HTTP2_HEADER_PATH]: req.path,
        ...http2Headers(this.target, req.headers),
      };
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      const stream = this.session.request(headers);
      let status = 0;
      let bytes = 0;
      const chunks: Buffer[] = [];
      stream.on('response', (h) => (status = Number(h[constants.HTTP2_HEADER_STATUS])));
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (keepBody) chunks.push(chunk);
      });
      stream.on('end', () => resolve({ status, bytes, ...(keepBody ? { body: Buffer.concat(chunks, bytes) } : {}) }));
      stream.on('error', reject);
      stream.end(req.body);
    });
  }

  close(): void {
    this.session.destroy();
  }
}
