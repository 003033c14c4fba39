/**
 * Remembers the RequestInfo of collection URLs. Parsing a path is a pure function of the method
 * and the URL, and a busy client sends the same collection URL over and over (every create of a
 * kind in a namespace, every list or watch an informer makes), so the parse (~4 µs, most of the
 * request filters' own cost on a create) need not be redone. URLs that name an object are not
 * kept: there are as many of them as objects, and they would only push the others out.
 */
import type { RequestInfo } from './request-context.js';

/** Enough for every collection of a large cluster's busy clients; a full memo starts over. */
const MAX_ENTRIES = 1024;

export class RequestInfoMemo {
  /**
   * By method, then URL: a lookup, which every request makes, builds no key string (a get by name
   * misses, and a key made only to miss with was most of the lookup's cost).
   */
  readonly #byMethod = new Map<string, Map<string, RequestInfo>>();

  get(method: string, url: string): RequestInfo | undefined {
    return this.#byMethod.get(method)?.get(url);
  }

  /** Keeps `info` for later requests of `method` on `url` if it is worth keeping (see above). */
  remember(method: string, url: string, info: RequestInfo): void {
    if (info.name !== '') return;
    if (this.size >= MAX_ENTRIES) this.#byMethod.clear();
    let byUrl = this.#byMethod.get(method);
    if (byUrl === undefined) this.#byMethod.set(method, (byUrl = new Map()));
    byUrl.set(url, info);
  }

  /** URLs kept, over every method (a handful of maps). */
  get size(): number {
    let size = 0;
    for (const byUrl of this.#byMethod.values()) size += byUrl.size;
    return size;
  }
}
