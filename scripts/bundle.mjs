// Bundles the compiled server (dist/src, written by tsc) into dist/capstan/, the `capstan` binary
// users run (`npm run build` runs tsc, then this). Why: Node 20 has no compile cache for modules;
// resolving, reading and compiling a few hundred separate ES modules took most of the server's
// startup time. The bundle is CommonJS so that it can run from a V8 code cache (code-cache.ts),
// which ES modules cannot in Node 20; loading CommonJS is also cheaper than the ES module loader.
//
// dist/capstan/
//   main.js           the entry (src/cli/launcher.ts): runs server.js from its code cache
//   server.js         the server (src/cli/main.ts and everything it imports; lazily imported
//                     modules stay lazily evaluated); server.js.<hash>.cache is its code cache
//   writer-worker.js  the SQLite writer thread, which writer-thread.js starts (from main.js, ahead
//                     of the server) as `new URL('./writer-worker.js', import.meta.url)`, i.e. beside it
//   generated/        the generated JSON that modules read beside themselves (reading and parsing
//                     a file is cheaper than compiling the same data as a JavaScript literal)
//   package.json      {"type": "commonjs"}, so Node loads these .js files as CommonJS
//
// Packages in EXTERNAL, and those loaded through createRequire (protobufjs, yaml), load from
// node_modules at run time. Source maps (through tsc's maps to src/*.ts) are written beside.
// Last, the server is started once on a scratch directory, which checks that the bundle starts and
// writes its code cache, so that the first real start is as fast as later ones.
//
// `--if-stale`: do nothing when the bundle was finished (its start check passed) after every file
// it is made from changed (the test and benchmark runners call this, so that a bare `tsc` does not
// leave them running old code, nor a bundle that failed its start check).
import { build } from 'esbuild-wasm';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist/src');
const outdir = join(root, 'dist/capstan');
const main = join(outdir, 'main.js');

// better-sqlite3 loads its native addon from a path relative to its own package; etcd3 (with
// gRPC) is loaded only with --store-servers, and bundling it only lengthens the build.
const EXTERNAL = ['better-sqlite3', 'etcd3'];
const WARM_UP_TIMEOUT_MS = 30_000;

/** Every file under `dir`, recursively. */
function filesUnder(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, out);
    else out.push(path);
  }
  return out;
}

/** Written last, once the bundle has started and stopped cleanly: a bundle without it is not done. */
const stamp = join(outdir, '.bundled');

/**
 * Whether the bundle is missing, unfinished (it failed its start check), or older than what it is
 * made from: dist/src's code and data (not source maps, not the tests compiled beside the code),
 * or this script and its injected helper.
 */
function isStale() {
  let bundled;
  try {
    bundled = statSync(stamp).mtimeMs;
  } catch {
    return true;
  }
  const inputs = filesUnder(compiled).filter((f) => !f.endsWith('.map') && !f.endsWith('.test.js'));
  inputs.push(fileURLToPath(import.meta.url), join(root, 'scripts/bundle-file-url.js'));
  return inputs.some((file) => statSync(file).mtimeMs > bundled);
}

async function bundle() {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: {
      main: join(compiled, 'cli/launcher.js'),
      server: join(compiled, 'cli/main.js'),
      'writer-worker': join(compiled, 'storage/sqlite/writer-worker.js'),
    },
    outdir,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    inject: [join(root, 'scripts/bundle-file-url.js')],
    define: { 'import.meta.url': 'bundleFileUrl' },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  writeFileSync(join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
  // One folder for all of them, so their names must not collide.
  mkdirSync(join(outdir, 'generated'));
  for (const file of filesUnder(compiled).filter((f) => f.endsWith('.json') && dirname(f).endsWith('/generated'))) {
    cpSync(file, join(outdir, 'generated', basename(file)), { errorOnExist: true, force: false });
  }
}

/** Starts the bundled server on a scratch directory until it is ready, then stops it (SIGTERM). */
async function warmUp() {
  const dataDir = mkdtempSync(join(tmpdir(), 'capstan-bundle-'));
  try {
    const child = spawn(process.execPath, [main, '--data-dir', dataDir, '--secure-port', '0', '--bind-address', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
    const ready = new Promise((resolve) => {
      const collect = (data) => {
        output += data;
        if (/ready in \d+ ms/.test(output)) resolve(true);
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), WARM_UP_TIMEOUT_MS);
    const started = await Promise.race([ready, exited.then(() => false)]);
    if (started) child.kill('SIGTERM');
    const status = await exited;
    clearTimeout(timer);
    if (!started || status !== 0) throw new Error(`the bundled server did not start and stop cleanly (exit ${status}):\n${output}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!process.argv.includes('--if-stale') || isStale()) {
  if (process.argv.includes('--if-stale')) console.error('the bundle is older than dist/src, or unfinished: bundling again');
  await bundle();
  await warmUp();
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
