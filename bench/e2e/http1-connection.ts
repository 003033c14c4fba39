/**
 * A lean HTTP/1.1 keep-alive connection for the closed-loop clients: a TLS socket, each request
 * written as one string, the response's status line and headers read once and its body counted
 * (by Content-Length, chunked framing, or to the close) straight from the socket's reads.
 *
 * Why not node:https: at 256 clients, Node's HTTP client (agent, parser, message streams, a tick
 * per read) cost the load generator ~120 µs of CPU per request, more than a bare node:https server
 * spends answering it. The generator shares the machine's two CPUs with the server it measures,
 * so every microsecond it spends is taken from the server; real clients (client-go, kubectl) are
 * Go programs that spend far less. The watch receiver reads its streams the same way
 * (chunked-body.ts).
 */
import type { TLSSocket, SecureContext } from 'node:tls';
import { ChunkedBody } from './chunked-body.js';
import { baseHeaders, openTlsSocket, requestHead, type OutgoingRequest, type Reply } from './https-client.js';
import { ResponseHeadReader, type ResponseHead } from './response-head.js';
import type { Target } from './target.js';

/** How the body of the response being read ends. */
type BodyFraming =
  | { readonly kind: 'length'; remaining: number }
  | { readonly kind: 'chunked'; readonly decoder: ChunkedBody }
  | { readonly kind: 'close' };

interface InFlight {
  /** How many bytes of the body to keep: 0 for none (only counted), Infinity for all. */
  readonly keepBytes: number;
  kept: number;
  readonly resolve: (reply: Reply) => void;
  readonly reject: (err: Error) => void;
  /** Reads the response head; undefined once it is complete. */
  head: ResponseHeadReader | undefined;
  status: number;
  bytes: number;
  readonly chunks: Buffer[];
  framing: BodyFraming | undefined;
  /** The server said Connection: close: the connection is not reused after this response. */
  closing: boolean;
}

export class Http1Connection {
  private current: InFlight | undefined;
  private closedWith: Error | undefined;

  private constructor(
    private readonly socket: TLSSocket,
    private readonly target: Target,
  ) {
    socket.on('error', (err) => this.ended(err));
    socket.on('close', () => this.ended(new Error('the connection closed')));
  }

  /** Opens a connection; resolves once TLS is up. */
  static open(target: Target, secureContext: SecureContext): Promise<Http1Connection> {
    return new Promise((resolve, reject) => {
      // Reads go to the connection once it exists; none come before TLS is up and a request went.
      let connection: Http1Connection | undefined;
      const socket = openTlsSocket(target, secureContext, (bytes) => connection?.received(bytes));
      socket.once('secureConnect', () => {
        socket.off('error', reject);
        connection = new Http1Connection(socket, target);
        resolve(connection);
      });
      socket.once('error', reject);
    });
  }

  /** Whether the connection can take another request. */
  get usable(): boolean {
    return this.closedWith === undefined && !this.socket.destroyed;
  }

  /**
   * Sends `req` and resolves with the whole response, keeping the first `keepBytes` of its body
   * (0: none, only counted; Infinity: all); one request at a time. Rejects on a connection or
   * framing error, never on an HTTP status.
   */
  request(req: OutgoingRequest, keepBytes: number): Promise<Reply> {
    if (this.current !== undefined) return Promise.reject(new Error('a request is already in flight on this connection'));
    if (this.closedWith !== undefined) return Promise.reject(this.closedWith);
    return new Promise((resolve, reject) => {
      this.current = { keepBytes, kept: 0, resolve, reject, head: new ResponseHeadReader(), status: 0, bytes: 0, chunks: [], framing: undefined, closing: false };
      const headers: Record<string, string> = { ...baseHeaders(this.target), ...req.headers };
      // An explicit length, as node:https sends it: Node's server refuses chunked bodies on some verbs.
      if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
      const head = requestHead(this.target, req.method, req.path, headers);
      // One write: one TLS record and one system call for the whole request.
      if (req.body === undefined) this.socket.write(head);
      else if (typeof req.body === 'string') this.socket.write(head + req.body);
      else this.socket.write(Buffer.concat([Buffer.from(head, 'latin1'), req.body]));
    });
  }

  close(): void {
    this.socket.destroy();
  }

  /** One read of the socket: a view of its read buffer, valid until the next read (see openTlsSocket). */
  private received(bytes: Buffer): void {
    const flight = this.current;
    if (flight === undefined) {
      // Nothing was asked: the server broke the exchange.
      this.socket.destroy(new Error('bytes received with no request in flight'));
      return;
    }
    if (flight.head !== undefined) {
      let read: ReturnType<ResponseHeadReader['feed']>;
      try {
        read = flight.head.feed(bytes);
      } catch (err) {
        return this.fail(err as Error);
      }
      if (read === undefined) return;
      flight.head = undefined;
      this.startBody(flight, read.head);
      bytes = read.rest;
      if (flight.framing?.kind === 'length' && flight.framing.remaining === 0) return this.finish(flight);
    }
    this.body(flight, bytes);
  }

  /** Takes the status from the head, and how the body is framed. */
  private startBody(flight: InFlight, head: ResponseHead): void {
    flight.status = head.status;
    flight.closing = head.closing;
    if (head.status === 204 || head.status === 304) {
      flight.framing = { kind: 'length', remaining: 0 };
    } else if (head.chunked) {
      const decoder = new ChunkedBody(() => this.socket.destroy());
      decoder.on('data', (data: Buffer) => this.count(flight, data));
      decoder.on('end', () => this.finish(flight));
      decoder.on('error', (err: Error) => this.fail(err));
      flight.framing = { kind: 'chunked', decoder: decoder.resume() };
    } else {
      flight.framing = head.contentLength !== undefined ? { kind: 'length', remaining: head.contentLength } : { kind: 'close' };
    }
  }

  private body(flight: InFlight, bytes: Buffer): void {
    const framing = flight.framing!;
    switch (framing.kind) {
      case 'chunked':
        framing.decoder.feed(bytes);
        return;
      case 'close':
        this.count(flight, bytes);
        return;
      case 'length': {
        if (bytes.length > framing.remaining) return this.fail(new Error('more bytes than the response\'s Content-Length'));
        this.count(flight, bytes);
        framing.remaining -= bytes.length;
        if (framing.remaining === 0) this.finish(flight);
        return;
      }
    }
  }

  private count(flight: InFlight, data: Buffer): void {
    flight.bytes += data.length;
    const take = Math.min(data.length, flight.keepBytes - flight.kept);
    if (take > 0) {
      // A copy: `data` is a view of the socket's read buffer, overwritten by the next read.
      flight.chunks.push(Buffer.from(data.subarray(0, take)));
      flight.kept += take;
    }
  }

  private finish(flight: InFlight): void {
    if (this.current !== flight) return;
    this.current = undefined;
    if (flight.closing) {
      this.closedWith = new Error('the server closed the connection');
      this.socket.end();
    }
    flight.resolve({ status: flight.status, bytes: flight.bytes, ...(flight.keepBytes > 0 ? { body: Buffer.concat(flight.chunks, flight.kept) } : {}) });
  }

  private fail(err: Error): void {
    this.socket.destroy();
    this.ended(err);
  }

  /** The connection is gone: a body read to the close is complete, anything else in flight failed. */
  private ended(err: Error): void {
    this.closedWith ??= err;
    const flight = this.current;
    if (flight === undefined) return;
    if (flight.head === undefined && flight.framing?.kind === 'close') return this.finish(flight);
    this.current = undefined;
    flight.reject(this.closedWith);
  }
}
