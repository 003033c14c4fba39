import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CODE_CACHE = new URL('../../src/cli/code-cache.js', import.meta.url).href;

/** Runs `script` through runWithCodeCache in a fresh process; the run's result is on stderr. */
function run(script: string): { code: number | null; stdout: string; run: { cacheFile: string; cacheUsed: boolean } | undefined; stderr: string } {
  const program = `import { runWithCodeCache } from ${JSON.stringify(CODE_CACHE)};\nprocess.stderr.write(JSON.stringify(runWithCodeCache(${JSON.stringify(script)})));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' });
  let parsed;
  try {
    parsed = JSON.parse(r.stderr);
  } catch {
    parsed = undefined;
  }
  return { code: r.status, stdout: r.stdout, run: parsed, stderr: r.stderr };
}

function withDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-code-cache-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('runWithCodeCache', () => {
  it('runs a script as a CommonJS module, writes the cache at exit, and uses it next time', () =>
    withDir((dir) => {
      const script = join(dir, 'server.js');
      writeFileSync(script, "'use strict';\nconsole.log(require('node:path').basename(__filename), __dirname === require('node:path').dirname(__filename), typeof module.exports);\n");
      const first = run(script);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout, 'server.js true object\n');
      assert.equal(first.run?.cacheUsed, false);
      assert.ok(existsSync(first.run!.cacheFile), 'cache written at exit');
      const second = run(script);
      assert.equal(second.stdout, first.stdout);
      assert.deepEqual(second.run, { cacheFile: first.run!.cacheFile, cacheUsed: true });
    }));

  it('never runs a cache made for other text, even of the same length', () =>
    withDir((dir) => {
      const script = join(dir, 'server.js');
      writeFileSync(script, "console.log('aaa');\n");
      run(script);
      writeFileSync(script, "console.log('bbb');\n");
      const changed = run(script);
      assert.equal(changed.stdout, 'bbb\n');
      assert.equal(changed.run?.cacheUsed, false);
      assert.equal(readdirSync(dir).filter((f) => f.endsWith('.cache')).length, 2);
    }));

  it('reads a script with characters outside ASCII as UTF-8, and names its cache by the hash of its bytes', () =>
    withDir((dir) => {
      const script = join(dir, 'server.js');
      const text = "// caf\u00e9 \u2264\nconsole.log('\u00e9\u20ac\u{1f600}'.length, '\u00e9\u20ac\u{1f600}');\n";
      writeFileSync(script, text);
      const r = run(script);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '4 \u00e9\u20ac\u{1f600}\n');
      const hash = createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
      assert.equal(r.run?.cacheFile, `${script}.${hash}.cache`);
    }));

  it('accepts a leading #! line and lets what the script throws end the process', () =>
    withDir((dir) => {
      const script = join(dir, 'server.js');
      writeFileSync(script, '#!/usr/bin/env node\nthrow new Error("no luck");\n');
      const r = run(script);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Error: no luck/);
      assert.match(r.stderr, /server\.js:2/, 'the stack names the script and its line');
    }));
});
