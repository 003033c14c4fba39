/**
 * GET with watch: resolves where the watch starts (the watch table of the spec), opens it on the
 * watch cache, and streams its events until the client leaves, the timeout passes, or the watch
 * fails (an ERROR event). The framing lives in watch-event-stream.ts.
 */
import { ApiError, fromWatchStorageError } from '../../api/errors.js';
import type { RequestContext } from '../../server/request-context.js';
import { watchReadOptions } from '../read-options.js';
import { conversions, negotiate } from '../respond.js';
import { EventStream } from './watch-event-stream.js';
import type { RequestScope } from '../scope.js';
import { selectionOf } from '../selectors.js';
import { setLongTimeout } from '../../util/long-timeout.js';
import type { CacheWatch } from '../../storage/cacher/cache-types.js';
import type { KubeObject } from '../../registry/object.js';

export async function handleWatch(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs, { stream: true });
  const options = watchReadOptions(ctx.query);
  const { filter, fields } = selectionOf(ctx.query, scope.definition);
  const d = scope.definition;
  const name = scope.name || fields.exactValue('metadata.name') || '';
  const namespace = scope.namespace || (d.namespaced ? fields.exactValue('metadata.namespace') ?? '' : '');
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setLongTimeout(onAbort, watchTimeoutMs(options.timeoutSeconds, scope.env.minRequestTimeoutSeconds), { ref: false });
  try {
    let start = options.start;
    if (start.kind === 'after' && start.revision === 0) {
      // "From now": after the store's current revision, with no initial state.
      const page = await scope.store.list({ namespace, at: { kind: 'consistent' }, limit: 1, signal: ctx.signal });
      start = { kind: 'after', revision: page.revision };
    }
    const converter = out.representation === 'object' ? undefined : await conversions();
    const stream = new EventStream(ctx, scope, out, converter);
    let watch: CacheWatch<KubeObject>;
    try {
      watch = await scope.store.watch({
        namespace, name, start, bookmarks: options.bookmarks, initialEventsEndBookmark: options.initialEventsEndBookmark,
        ...(filter ? { filter } : {}), signal: stop.signal,
      });
    } catch (err) {
      // As upstream: a start revision that is gone is reported as an ERROR event, not a failed request.
      if (err instanceof ApiError && err.code === 410) return stream.endWithError(err);
      throw err;
    }
    stream.begin();
    // Events are pushed as they come; the stream is ended here, after the watch has let go.
    // The stream asks for no more while its client is not reading, and for more once it drains.
    stream.onReady(() => watch.resume());
    const failure = await new Promise<unknown>((resolve) => watch.consume({ event: (event) => stream.send(event), end: resolve }));
    if (failure === undefined) stream.end();
    else stream.endWithError(fromWatchStorageError(failure));
  } finally {
    timer.cancel();
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * How long a watch lasts, as upstream decides: timeoutSeconds, or when that is absent or 0, a
 * random time between --min-request-timeout and twice that (so that a fleet of clients does not
 * reconnect at once). A negative timeout, or 0 with no minimum, ends the watch at once.
 */
function watchTimeoutMs(timeoutSeconds: number | undefined, minSeconds: number): number {
  const seconds = timeoutSeconds ?? 0;
  if (seconds === 0 && minSeconds > 0) return (minSeconds + Math.random() * minSeconds) * 1000;
  return Math.max(0, seconds * 1000);
}
