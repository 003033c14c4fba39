/**
 * Imported first by the launcher, for its side effect: once the heap has been made with the young
 * generation that the launcher's first line asks for (`--max-semi-space-size`), the flag goes back
 * to its default.
 *
 * Why: V8 tags every code cache with a hash of the flags that differ from their defaults, and
 * refuses a cache made under other flags. Node's built-in modules (http, tls, crypto, ...) carry
 * code caches made under the defaults, so with the option on the command line node compiled each
 * of them from source, ~20 ms more to start. V8 reads the size only when it makes a heap: with the
 * flag reset, this heap keeps its young generation and the caches fit again (and the store's
 * writer thread, made later, gets the default young generation, which is all it needs).
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--max-semi-space-size=0');
