/**
 * How a closed-loop job's clients reach the server: HTTP/1.1 with one keep-alive connection per
 * client (what most HTTP libraries do), or HTTP/2 with every client a stream on one shared
 * connection (what client-go and kubectl do).
 */
import { constants, type ClientHttp2Session } from 'node:http2';
import { connectHttp2, http2Headers, keepAliveAgent, send, type OutgoingRequest, type Reply } from './https-client.js';
import type { Target } from './target.js';

export type Protocol = 'http/1.1' | 'h2';

export interface Sender {
  send(req: OutgoingRequest, keepBody: boolean): Promise<Reply>;
  close(): void;
}

/** A sender for `concurrency` clients over `protocol`; resolves once an HTTP/2 session is up. */
export async function openSender(target: Target, protocol: Protocol, concurrency: number): Promise<Sender> {
  if (protocol === 'h2') return Http2Sender.connect(target);
  const agent = keepAliveAgent(target, concurrency);
  return { send: (req, keepBody) => send(agent, target, req, keepBody), close: () => agent.destroy() };
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
