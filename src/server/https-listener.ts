/**
 * The socket side: one TLS port serving HTTP/2 (what Go clients such as kubectl negotiate) and
 * HTTP/1.1, or HTTP/1.1 alone (--disable-http2-serving), asking for client certificates without
 * requiring them (the authentication filter decides). It tracks connections so that a stop can be
 * graceful: stop accepting, let HTTP/2 sessions finish their streams, then close whatever is left.
 */
import { createSecureServer, type Http2SecureServer, type ServerHttp2Session } from 'node:http2';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SecureVersion, TLSSocket } from 'node:tls';
import type { Logger } from './logger.js';
import type { RequestListener } from './filters/request-info.js';

export interface HttpsListenerOptions {
  readonly certPem: string;
  readonly keyPem: string;
  /** CAs whose client certificates the TLS layer verifies (the result is `socket.authorized`). */
  readonly clientCaPem: string;
  readonly onRequest: RequestListener;
  readonly logger: Logger;
  /**
   * HTTP/2 streams a client may open at once on a connection (--http2-max-streams-per-connection);
   * 0 or absent: {@link DEFAULT_MAX_STREAMS}.
   */
  readonly maxStreamsPerConnection?: number;
  /** --disable-http2-serving: offer HTTP/1.1 only. */
  readonly disableHttp2?: boolean;
  /** --tls-min-version; default TLS 1.2. */
  readonly minVersion?: SecureVersion;
  /** --tls-cipher-suites as an OpenSSL cipher list; default OpenSSL's. */
  readonly ciphers?: string;
}

/**
 * Streams per HTTP/2 connection when the flag leaves it to the server. Upstream's is 100 (Go's
 * client opens another connection past that); Capstan's is higher so that a client that keeps to
 * one connection, as Node's does, can hold a thousand watches on it.
 */
export const DEFAULT_MAX_STREAMS = 1000;

/** Addresses that mean "every interface": we listen on `::`, which also accepts IPv4 where the OS allows. */
const ALL_INTERFACES = new Set(['', '0.0.0.0', '::']);

export class HttpsListener {
  private readonly server: Http2SecureServer | HttpsServer;
  private readonly sessions = new Set<ServerHttp2Session>();
  private readonly sockets = new Set<TLSSocket>();
  private readonly closed: Promise<void>;

  constructor(options: HttpsListenerOptions) {
    const tls = {
      cert: options.certPem,
      key: options.keyPem,
      ca: options.clientCaPem,
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: options.minVersion ?? 'TLSv1.2',
      ...(options.ciphers !== undefined ? { ciphers: options.ciphers } : {}),
    } as const;
    if (options.disableHttp2) {
      const server = createHttpsServer(tls, options.onRequest);
      // As HTTP/1.1 is served beside HTTP/2 (and as Go serves it): no limit on an idle connection.
      server.keepAliveTimeout = 0;
      this.server = server;
    } else {
      const server = createSecureServer(
        { ...tls, allowHTTP1: true, settings: { maxConcurrentStreams: options.maxStreamsPerConnection || DEFAULT_MAX_STREAMS } },
        options.onRequest,
      );
      server.on('session', (session: ServerHttp2Session) => {
        this.sessions.add(session);
        session.on('close', () => this.sessions.delete(session));
        session.on('error', (err) => options.logger.info(`http2 session error: ${err.message}`, 4));
      });
      this.server = server;
    }
    this.server.on('secureConnection', (socket: TLSSocket) => {
      // A response's headers and body often go out as two writes; with Nagle's algorithm the body
      // then waits for the client's delayed ACK (~40 ms). Go servers, upstream included, disable it.
      socket.setNoDelay(true);
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server.on('tlsClientError', (err) => options.logger.info(`TLS handshake error: ${err.message}`, 4));
    this.closed = new Promise((resolve) => this.server.on('close', () => resolve()));
  }

  /** Starts listening; resolves with the bound address. */
  async listen(host: string, port: number): Promise<AddressInfo> {
    if (!ALL_INTERFACES.has(host)) return this.listenOn(host, port);
    try {
      return await this.listenOn('::', port);
    } catch (err) {
      // A host without IPv6 cannot bind `::`; every IPv4 interface is the next best thing.
      if ((err as NodeJS.ErrnoException).code !== 'EAFNOSUPPORT' && (err as NodeJS.ErrnoException).code !== 'EADDRNOTAVAIL') throw err;
      return this.listenOn('0.0.0.0', port);
    }
  }

  private listenOn(host: string, port: number): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      this.server.listen({ host, port }, () => {
        this.server.off('error', onError);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  /**
   * Stops accepting connections and asks HTTP/2 clients to go away once their open streams end
   * (GOAWAY); HTTP/1.1 connections keep serving until {@link destroyAll}.
   */
  stopAccepting(): void {
    if (this.server.listening) this.server.close();
    for (const session of this.sessions) if (!session.closed) session.close();
  }

  /** Closes every remaining connection at once, and resolves when the server has closed. */
  async destroyAll(): Promise<void> {
    if (this.server.listening) this.server.close();
    for (const session of this.sessions) session.destroy();
    for (const socket of this.sockets) socket.destroy();
    await this.closed;
  }
}
