import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { progressModeFor } from '../../../src/storage/etcd/watch/progress-mode.js';

describe('progress mode by etcd version', () => {
  const cases: ReadonlyArray<[string, 'server' | 'verified']> = [
    ['3.4.23', 'verified'], // Debian 12's etcd-server: progress responses can overtake events
    ['3.4.30', 'verified'],
    ['3.4.31', 'server'],
    ['3.5.12', 'verified'],
    ['3.5.13', 'server'],
    ['3.5.21', 'server'],
    ['3.6.0', 'server'],
    ['v3.6.4', 'server'],
    ['3.3.27', 'verified'],
    ['4.0.0', 'server'],
    ['', 'verified'],
    ['not a version', 'verified'],
  ];
  for (const [version, mode] of cases) {
    it(`${JSON.stringify(version)} -> ${mode}`, () => assert.equal(progressModeFor(version), mode));
  }
});
