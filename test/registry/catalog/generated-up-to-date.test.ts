import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// This file runs from dist/test/registry/catalog/, four levels below the repository root.
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const referenceDir = process.env.CAPSTAN_REFERENCE_DIR ?? fileURLToPath(new URL('../shared/reference/', `file://${repoRoot}`));

test('committed generated catalog files match the generator', {
  skip: existsSync(`${referenceDir}/openapi`) ? false : `reference documents not found at ${referenceDir}`,
}, () => {
  const result = spawnSync(process.execPath, ['scripts/generate-builtin.mjs', '--check', '--reference', referenceDir], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
});
