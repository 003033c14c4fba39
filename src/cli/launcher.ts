#!/usr/bin/env node
/**
 * The entry point of the bundle (dist/capstan/main.js, see scripts/bundle.mjs): runs the bundled
 * server beside it, server.js, from its V8 code cache (see code-cache.ts). Only the bundle runs
 * this; the compiled module under dist/src has no server.js beside it.
 */
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
