// Runs every compiled test file (dist/**/*.test.js) with Node's own test runner.
// Node 20 has no glob support in `node --test`, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function findTests(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
const files = ['dist/src', 'dist/test']
  .filter((d) => { try { return statSync(d).isDirectory(); } catch { return false; } })
  .flatMap((d) => findTests(d, []))
  .filter((f) => filter.length === 0 || filter.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// The end-to-end tests start the bundle (dist/capstan); after a bare `tsc` it would be stale.
const bundled = spawnSync(process.execPath, ['scripts/bundle.mjs', '--if-stale'], { stdio: 'inherit' });
if (bundled.status !== 0) process.exit(bundled.status ?? 1);
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
