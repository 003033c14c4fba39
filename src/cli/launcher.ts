#!/usr/bin/env node
/**
 * The entry point of the bundle (dist/capstan/main.js, see scripts/bundle.mjs): runs the bundled
 * server beside it, server.js, from its V8 code cache (see code-cache.ts). Only the bundle runs
 * this; the compiled module under dist/src has no server.js beside it.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './code-cache.js';

const server = fileURLToPath(new URL('./server.js', import.meta.url));
if (process.sourceMapsEnabled) {
  // Node maps stack traces back to src/*.ts only for what its own loader compiled: under
  // --enable-source-maps the server loads that way, without the code cache.
  createRequire(import.meta.url)(server);
} else {
  runWithCodeCache(server);
}
