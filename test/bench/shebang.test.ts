import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeOptionsOf, scriptNodeOptions } from '../../bench/e2e/shebang.js';
import { MAIN } from '../e2e/harness.js';

describe('nodeOptionsOf', () => {
  it('takes the options after node, through env -S or a path to node', () => {
    assert.deepEqual(nodeOptionsOf('#!/usr/bin/env -S node --max-semi-space-size=64 --no-warnings'), ['--max-semi-space-size=64', '--no-warnings']);
    assert.deepEqual(nodeOptionsOf('#!/usr/local/bin/node --stack-size=2000'), ['--stack-size=2000']);
  });

  it('gives none for a plain node line or a script without one', () => {
    assert.deepEqual(nodeOptionsOf('#!/usr/bin/env node'), []);
    assert.deepEqual(nodeOptionsOf('"use strict";'), []);
  });

  it('refuses a first line that runs something else', () => {
    assert.throws(() => nodeOptionsOf('#!/bin/sh'), /does not run node: #!\/bin\/sh/);
    assert.throws(() => nodeOptionsOf('#!/usr/bin/env -S python3 -u'), /does not run node/);
  });
});

describe('scriptNodeOptions', () => {
  it('reads the first line of a file, and refuses one with no end in sight', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shebang-'));
    try {
      writeFileSync(join(dir, 'a.js'), '#!/usr/bin/env -S node --expose-gc\nconsole.log(1);\n');
      assert.deepEqual(scriptNodeOptions(join(dir, 'a.js')), ['--expose-gc']);
      writeFileSync(join(dir, 'b.js'), `#!/usr/bin/env node ${'x'.repeat(2000)}`);
      assert.throws(() => scriptNodeOptions(join(dir, 'b.js')), /no end to its first line within 1024 bytes/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds the young generation\'s size in the binary the benchmark starts', () => {
    assert.ok(scriptNodeOptions(MAIN).includes('--max-semi-space-size=64'), scriptNodeOptions(MAIN).join(' '));
  });
});
