/**
 * How the benchmark talks HTTPS: node:https over a keep-alive agent that carries the target's TLS
 * credentials, so every request on it reuses a warm connection (setup, lists, paced writes), and
 * HTTP/2 sessions; plus what the lean HTTP/1.1 clients share (chunked-body.ts for watches,
 * http1-connection.ts for the closed loop): the TLS socket and the request head.
 */
import { connect, type ClientHttp2Session } from 'node:http2';
import { Agent, request } from 'node:https';
import { isIP, type OnReadOpts } from 'node:net';
import { connect as connectTls, createSecureContext, type ConnectionOptions, type SecureContext, type TLSSocket } from 'node:tls';
import type { Target } from './target.js';

/** What the benchmark sends; the body is already encoded. */
export interface OutgoingRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

export interface Reply {
  readonly status: number;
  /** Body length in bytes. */
  readonly bytes: number;
  /** The body, when it was asked for. */
  readonly body?: Buffer;
}

/** Identifies the benchmark in server logs and keeps servers from pretty-printing (they do for curl). */
const USER_AGENT = 'capstan-e2e-bench/1';

/**
 * A keep-alive agent holding up to `maxSockets` connections to `target`. The caller destroys it
 * when done (open keep-alive sockets otherwise keep the process alive).
 */
export function keepAliveAgent(target: Target, maxSockets: number): Agent {
  return new Agent({
    keepAlive: true,
    maxSockets,
    maxFreeSockets: maxSockets,
    scheduling: 'fifo',
    ...tlsCredentials(target),
    // One context for every connection: built per connection, parsing the PEMs costs ~2.6 ms each
    // (hundreds of connections per create or get round).
    secureContext: secureContextFor(target),
    rejectUnauthorized: !target.insecure,
  });
}

/** The target's CA and client certificate, as TLS options take them. */
export function tlsCredentials(target: Target): { ca?: string; cert?: string; key?: string } {
  return {
    ...(target.ca ? { ca: target.ca } : {}),
    ...(target.cert ? { cert: target.cert } : {}),
    ...(target.key ? { key: target.key } : {}),
  };
}

/** One TLS context with the target's credentials, to share between connections. */
export function secureContextFor(target: Target): SecureContext {
  return createSecureContext(tlsCredentials(target));
}

/** `host:port` as a URL or Host header writes it (an IPv6 address in brackets). */
export function authority(target: Target): string {
  return `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
}

/**
 * The one buffer every lean client's socket reads into (see {@link openTlsSocket}). A read is
 * handed to its socket's callback and taken in before the next read begins, so one buffer serves
 * every socket of the process.
 */
const sharedReadBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * A new TLS connection to the target for the lean clients (chunked-body.ts, http1-connection.ts),
 * with Nagle off: each of their requests is one write that should leave at once.
 *
 * `onRead` gets every read, in place of 'data' events, as a view of a buffer that the next read
 * overwrites: the callback copies whatever it keeps. A 'data' event costs a new Buffer and a pass
 * through the socket's Readable per read, and at 50,000 watch events a second those reads were
 * a large part of the receiving process's CPU, on the two CPUs it shares with the server.
 */
export function openTlsSocket(target: Target, secureContext: SecureContext, onRead: (bytes: Buffer) => void): TLSSocket {
  // SNI takes host names only, never addresses.
  const servername = isIP(target.host) === 0 ? target.host : undefined;
  // tls.connect takes socket.connect's options, onread among them; Node's typings leave it out.
  const options: ConnectionOptions & { onread: OnReadOpts } = {
    host: target.host,
    port: target.port,
    secureContext,
    rejectUnauthorized: !target.insecure,
    servername,
    onread: {
      buffer: sharedReadBuffer,
      callback: (length, buffer) => {
        onRead((buffer as Buffer).subarray(0, length));
        return true; // keep reading
      },
    },
  };
  const socket = connectTls(options);
  socket.setNoDelay(true);
  return socket;
}

/** An HTTP/1.1 request's line and headers, up to and including the blank line. */
export function requestHead(target: Target, method: string, path: string, headers: Readonly<Record<string, string>>): string {
  let head = `${method} ${path} HTTP/1.1\r\nHost: ${authority(target)}\r\n`;
  for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
  return `${head}\r\n`;
}

/** Request headers every benchmark request carries: identity, and the token if there is one. */
export function baseHeaders(target: Target): Record<string, string> {
  return { 'User-Agent': USER_AGENT, ...(target.token ? { Authorization: `Bearer ${target.token}` } : {}) };
}

/** {@link baseHeaders} as HTTP/2 wants them: lower-case names. */
export function http2Headers(target: Target, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries({ ...baseHeaders(target), ...extra }).map(([k, v]) => [k.toLowerCase(), v]));
}

/**
 * One HTTP/2 connection to the target with its TLS credentials, and windows as large as
 * client-go's: HTTP/2's default 64 KiB would stall large lists and throttle many streams on one
 * connection to round trips.
 */
export function connectHttp2(target: Target): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = connect(`https://${authority(target)}`, {
      ...tlsCredentials(target),
      rejectUnauthorized: !target.insecure,
      settings: { initialWindowSize: 4 * 2 ** 20 },
    });
    session.once('connect', () => {
      session.setLocalWindowSize(64 * 2 ** 20);
      resolve(session);
    });
    session.once('error', reject);
  });
}

/**
 * Sends one request on `agent` and resolves when the whole response has arrived; keeps the body
 * only when `keepBody`. Rejects on a connection error, never on an HTTP status.
 */
export function send(agent: Agent, target: Target, req: OutgoingRequest, keepBody: boolean): Promise<Reply> {
  return new Promise((resolveReply, reject) => {
    const headers: Record<string, string> = { ...baseHeaders(target), ...req.headers };
    // An explicit length: Node's HTTP/1.1 server refuses chunked bodies on some verbs, and real clients send one.
    if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
    const outgoing = request({ host: target.host, port: target.port, method: req.method, path: req.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (keepBody) chunks.push(chunk);
      });
      res.on('end', () => resolveReply({ status: res.statusCode ?? 0, bytes, ...(keepBody ? { body: Buffer.concat(chunks, bytes) } : {}) }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/** Sends one request on a short-lived agent and returns the body as text (setup and probes). */
export async function sendOnce(target: Target, req: OutgoingRequest): Promise<{ status: number; text: string }> {
  const agent = keepAliveAgent(target, 1);
  try {
    const reply = await send(agent, target, req, true);
    return { status: reply.status, text: reply.body!.toString('utf8') };
  } finally {
    agent.destroy();
  }
}

/** Milliseconds since this process started, sub-millisecond resolution. */
export function now(): number {
  return performance.now();
}

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes on this machine. */
export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}
