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
  readonly #byUrl = new Map<string, RequestInfo>();

  get(method: string, url: string): RequestInfo | undefined {
    return this.#byUrl.get(memoKey(method, url));
  }

  /** Keeps `info` for later requests of `method` on `url` if it is worth keeping (see above). */
  remember(method: string, url: string, info: RequestInfo): void {
    if (info.name !== '') return;
    if (this.#byUrl.size >= MAX_ENTRIES) this.#byUrl.clear();
    this.#byUrl.set(memoKey(method, url), info);
  }

  get size(): number {
    return this.#byUrl.size;
  }
}

function memoKey(method: string, url: string): string {
  return `${method} ${url}`;
}
