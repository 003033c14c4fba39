/**
 * A streamed response body (a long list encoded item by item), with backpressure: `write`
 * waits while the client is not reading, so no buffer grows without bound. It also hides the
 * HTTP/1.1-or-HTTP/2 response union, whose `write` overloads TypeScript cannot call as one.
 */
import type { ServerResponse } from 'node:http';
import { isFinished, setResponseHead } from './write-response.js';
import type { RequestContext } from './request-context.js';

export interface ResponseStream {
  /**
   * Writes a chunk; resolves once the chunk is accepted, or at once if the response has ended.
   * Rejects with the context signal's reason when the request is aborted while waiting.
   */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Ends the response (no-op if already ended). */
  end(): void;
}

export interface OpenStreamOptions {
  readonly statusCode?: number;
  readonly contentType: string;
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
}

/**
 * Sends the status and headers (plus Warning headers from `ctx.warnings`) immediately and
 * returns the body stream. Content-Length is not set: the body's size is not known up front.
 */
export function openStream(ctx: RequestContext, options: OpenStreamOptions): ResponseStream {
  // Both response kinds share these members at run time; the cast only picks one signature.
  const res = ctx.res as ServerResponse;
  if (!isFinished(res)) {
    setResponseHead(ctx, options.statusCode ?? 200, options.contentType, options.headers);
    res.flushHeaders();
  }
  return {
    write: (chunk) => {
      if (isFinished(res)) return Promise.resolve();
      if (res.write(chunk)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          ctx.signal.removeEventListener('abort', aborted);
          resolve();
        };
        const aborted = () => {
          res.off('drain', done);
          res.off('close', done);
          reject(ctx.signal.reason);
        };
        res.on('drain', done);
        res.on('close', done);
        ctx.signal.addEventListener('abort', aborted, { once: true });
      });
    },
    end: () => {
      if (!isFinished(res)) res.end();
    },
  };
}
