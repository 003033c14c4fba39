/**
 * Opening watch responses as bodies that emit 'data', over HTTP/1.1 (a connection each, read by
 * the lean client of chunked-body.ts) or HTTP/2 (streams on one shared connection, as an
 * informer-heavy Go client does).
 */
import type { EventEmitter } from 'node:events';
import { constants } from 'node:http2';
import { getChunked } from './chunked-body.js';
import { baseHeaders, connectHttp2, http2Headers, secureContextFor } from './https-client.js';
import type { Protocol } from './senders.js';
import type { Target } from './target.js';

/**
 * A watch response's body: 'data' (Buffer), 'end', 'error', 'close'. Like a Readable it holds what
 * arrives until resume(), so that nothing is emitted before its reader listens.
 */
export type WatchBody = EventEmitter & { resume(): unknown; destroy(): void };

/** Both protocols ask for the same representation. */
const WATCH_ACCEPT = 'application/json';

export interface WatchStreams {
  /** Opens a watch; resolves with its body once the headers said 200, rejects otherwise. */
  open(path: string): Promise<WatchBody>;
  close(): void;
}

export async function openWatchStreams(target: Target, protocol: Protocol): Promise<WatchStreams> {
  return protocol === 'h2' ? http2Streams(target) : http1Streams(target);
}

function http1Streams(target: Target): WatchStreams {
  const secureContext = secureContextFor(target);
  const opened = new Set<WatchBody>();
  return {
    open: async (path) => {
      const body = await getChunked(target, secureContext, path, { ...baseHeaders(target), Accept: WATCH_ACCEPT });
      opened.add(body);
      return body;
    },
    close: () => {
      for (const body of opened) body.destroy();
    },
  };
}

async function http2Streams(target: Target): Promise<WatchStreams> {
  const session = await connectHttp2(target);
  const headers = http2Headers(target, { Accept: WATCH_ACCEPT });
  return {
    open: (path) =>
      new Promise((resolve, reject) => {
        const stream = session.request({ [constants.HTTP2_HEADER_PATH]: path, ...headers }, { endStream: true });
        stream.once('response', (h) => {
          const status = Number(h[constants.HTTP2_HEADER_STATUS]);
          if (status === 200) return resolve(stream);
          stream.resume();
          reject(new Error(`watch ${path}: HTTP ${status}`));
        });
        stream.once('error', reject);
      }),
    close: () => session.destroy(),
  };
}
