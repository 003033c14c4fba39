/**
 * A lean HTTP/1.1 client for one long response, as the watch receiver needs it: a TLS socket, one
 * GET, the status line and headers read once, then the chunked body decoded straight from the
 * socket's reads.
 *
 * Why not node:https: with 1,000 watches and 50,000 events/s, Node's HTTP client (parser, message
 * stream, a tick per read) used more of the receiving process than the events themselves, and that
 * process shares the machine's two CPUs with the server being measured. Real watchers (kubelets,
 * controllers) are Go programs that spend far less per event.
 */
import { EventEmitter } from 'node:events';
import type { SecureContext } from 'node:tls';
import { openTlsSocket, requestHead } from './https-client.js';
import { ResponseHeadReader } from './response-head.js';
import type { Target } from './target.js';

const CR = 0x0d;
const LF = 0x0a;
/** More than this without the end of a chunk-size line is not HTTP. */
const MAX_LINE = 64 * 1024;

type Phase = 'size' | 'data' | 'data-end' | 'done';

/**
 * The body of a chunked response: emits 'data' (Buffer, one per chunk or part of one, valid only
 * during the event: see feed()), 'end' at the last chunk (a watch carries no trailers, so they are
 * not waited for), 'error' on a framing or connection error, 'close' when the connection closes.
 * Like a Readable it starts paused: what arrives before resume() is held, so nothing is emitted
 * before its reader listens.
 */
export class ChunkedBody extends EventEmitter {
  private phase: Phase = 'size';
  private line = '';
  private remaining = 0;
  /** Until resume(): the bytes received, and how the connection ended if it did. */
  private held: Buffer[] | undefined = [];
  private heldEnd: { readonly error?: Error } | undefined;
  private connectionDone = false;

  constructor(private readonly destroySocket: () => void) {
    super();
  }

  destroy(): void {
    this.destroySocket();
  }

  /** Starts emitting, first what was held. */
  resume(): this {
    const held = this.held;
    if (held === undefined) return this;
    this.held = undefined;
    for (const bytes of held) this.feed(bytes);
    if (this.heldEnd !== undefined) this.connectionEnded(this.heldEnd.error);
    return this;
  }

  /**
   * Decodes the next bytes of the body (held until resume()). `bytes` may be a socket's read
   * buffer, overwritten by its next read: what is held is copied, and a 'data' listener copies
   * what it keeps.
   */
  feed(bytes: Buffer): void {
    if (this.held !== undefined) {
      this.held.push(Buffer.from(bytes));
      return;
    }
    let at = 0;
    while (at < bytes.length && this.phase !== 'done') {
      switch (this.phase) {
        case 'size': {
          const lf = bytes.indexOf(LF, at);
          const end = lf < 0 ? bytes.length : lf;
          this.line += bytes.toString('latin1', at, end);
          if (lf < 0) {
            if (this.line.length > MAX_LINE) return this.fail('chunk-size line too long');
            return;
          }
          at = lf + 1;
          const size = Number.parseInt(this.line.replace(/[;\r].*$/s, ''), 16);
          this.line = '';
          if (!Number.isFinite(size) || size < 0) return this.fail('bad chunk size');
          if (size === 0) {
            this.phase = 'done';
            this.emit('end');
            return;
          }
          this.remaining = size;
          this.phase = 'data';
          continue;
        }
        case 'data': {
          const take = Math.min(this.remaining, bytes.length - at);
          this.emit('data', bytes.subarray(at, at + take));
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) this.phase = 'data-end';
          continue;
        }
        case 'data-end': {
          // The CRLF after a chunk's data.
          if (bytes[at] === CR) at++;
          else if (bytes[at] === LF) {
            at++;
            this.phase = 'size';
          } else return this.fail('chunk data not followed by CRLF');
          continue;
        }
      }
    }
  }

  /** The connection ended, with `error` if it failed (held until resume()). */
  connectionEnded(error?: Error): void {
    // A failed connection reports its error and then closes: the first report counts.
    if (this.held !== undefined) {
      this.heldEnd ??= error === undefined ? {} : { error };
      return;
    }
    if (this.connectionDone) return;
    this.connectionDone = true;
    if (error !== undefined) this.emit('error', error);
    this.emit('close');
  }

  private fail(reason: string): void {
    this.phase = 'done';
    this.emit('error', new Error(`watch response: ${reason}`));
    this.destroySocket();
  }
}

/**
 * GETs `path` on `target` over a new TLS connection; resolves with the body once the headers say
 * 200 with a chunked body, rejects otherwise.
 */
export function getChunked(target: Target, secureContext: SecureContext, path: string, headers: Readonly<Record<string, string>>): Promise<ChunkedBody> {
  return new Promise((resolve, reject) => {
    let head: ResponseHeadReader | undefined = new ResponseHeadReader();
    // Reads come only after the request below went out, so `body` exists by the first one.
    const socket = openTlsSocket(target, secureContext, (bytes) => {
      if (head === undefined) return body.feed(bytes);
      let read: ReturnType<ResponseHeadReader['feed']>;
      try {
        read = head.feed(bytes);
      } catch (err) {
        return fail(new Error(`watch ${path}: ${(err as Error).message}`));
      }
      if (read === undefined) return;
      head = undefined;
      if (read.head.status !== 200) return fail(new Error(`watch ${path}: HTTP ${read.head.status}`));
      if (!read.head.chunked) return fail(new Error(`watch ${path}: the response is not chunked`));
      resolve(body);
      if (read.rest.length > 0) body.feed(read.rest);
    });
    const body = new ChunkedBody(() => socket.destroy());
    socket.on('secureConnect', () => {
      socket.write(requestHead(target, 'GET', path, headers));
    });
    socket.on('error', (err) => {
      if (head !== undefined) fail(err);
      else body.connectionEnded(err);
    });
    socket.on('close', () => {
      if (head !== undefined) fail(new Error(`watch ${path}: the connection closed before the response`));
      else body.connectionEnded();
    });
    function fail(err: Error): void {
      head = undefined;
      socket.destroy();
      reject(err);
    }
  });
}
