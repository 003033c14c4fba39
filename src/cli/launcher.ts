#!/usr/bin/env -S node --max-semi-space-size=64
/**
 * The entry point of the bundle (dist/capstan/main.js, see scripts/bundle.mjs): runs the bundled
 * server beside it, server.js, from its V8 code cache (see code-cache.ts). Only the bundle runs
 * this; the compiled module under dist/src has no server.js beside it.
 *
 * The first line gives node a young generation of up to 64 MiB a semi-space instead of 16. Every
 * young collection walks the header of each page of the old generation, about 1 µs a page on a
 * VM, so with 300,000 objects in the watch cache (~550 MB of heap) a collection took 2.5 ms
 * instead of 0.7, and a get paid ~5% of its CPU for it; four times fewer collections pay a
 * quarter of that. V8 reads the size only when the heap is made, so it cannot be set from here:
 * it is a node option, and running the file (the `capstan` bin, `npm start`) passes it. The
 * first import then sets the flag back, so that node's built-in modules load from their caches.
 */
import './young-generation-flag.js';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { prestartWriterThread } from '../storage/sqlite/writer-thread.js';
import { runWithCodeCache } from './code-cache.js';
import { mayServeEmbeddedStore } from './embedded-store-guess.js';

// The embedded store's writer thread boots (~45 ms, on another core) while the server loads below,
// instead of after it, when the store opens.
if (mayServeEmbeddedStore(process.argv.slice(2))) prestartWriterThread();

const server = fileURLToPath(new URL('./server.js', import.meta.url));
if (process.sourceMapsEnabled) {
  // Node maps stack traces back to src/*.ts only for what its own loader compiled: under
  // --enable-source-maps the server loads that way, without the code cache.
  createRequire(import.meta.url)(server);
} else {
  runWithCodeCache(server);
}
