/**
 * The benchmark's reading of the kernel's DAMON settings (bench/e2e/damon.ts), from a sysfs tree
 * laid out as the kernel's in a temporary directory, and how the results word it.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeDamon, runningDamonContexts } from '../../bench/e2e/damon.js';

const root = mkdtempSync(join(tmpdir(), 'capstan-damon-'));

function put(path: string, value: string): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${value}\n`);
}

/** A kdamond with one context and one pageout scheme, as the project's VMs have it. */
function kdamond(index: number, state: string): void {
  const k = `${index}`;
  put(`${k}/state`, state);
  put(`${k}/contexts/nr_contexts`, '1');
  put(`${k}/contexts/0/operations`, 'paddr');
  put(`${k}/contexts/0/monitoring_attrs/intervals/sample_us`, '500000');
  put(`${k}/contexts/0/monitoring_attrs/intervals/aggr_us`, '5000000');
  put(`${k}/contexts/0/schemes/nr_schemes`, '1');
  put(`${k}/contexts/0/schemes/0/action`, 'pageout');
  put(`${k}/contexts/0/schemes/0/access_pattern/age/min`, '12');
  put(`${k}/contexts/0/schemes/0/quotas/ms`, '50');
  put(`${k}/contexts/0/schemes/0/quotas/reset_interval_ms`, '1000');
}

describe('damon', () => {
  after(() => rmSync(root, { recursive: true, force: true }));

  it('finds nothing where the kernel has no DAMON', () => {
    assert.deepEqual(runningDamonContexts(join(root, 'absent')), []);
    assert.equal(describeDamon([]), undefined);
  });

  it('reads the contexts of the kdamonds that are on, and skips those that are off', () => {
    kdamond(0, 'on');
    kdamond(1, 'off');
    const contexts = runningDamonContexts(root);
    assert.deepEqual(contexts, [
      { operations: 'paddr', sampleMs: 500, aggregationMs: 5000, schemes: [{ action: 'pageout', minAgeMs: 60_000, quotaMs: 50, quotaIntervalMs: 1000 }] },
    ]);
    assert.equal(
      describeDamon(contexts),
      "The kernel's DAMON was on (all physical memory, a sample every 0.5 s; pageout of regions idle for 60 s, up to 50 ms of CPU per second); " +
        'its thread, kdamond, runs on the same CPUs as the benchmark (its share is in Details).',
    );
  });

  it('reads a missing or unreadable setting as 0, and a scheme without a quota as unlimited', () => {
    put('2/state', 'on');
    put('2/contexts/0/operations', 'vaddr');
    put('2/contexts/0/schemes/0/action', 'stat');
    const contexts = runningDamonContexts(root).filter((c) => c.operations === 'vaddr');
    assert.deepEqual(contexts, [{ operations: 'vaddr', sampleMs: 0, aggregationMs: 0, schemes: [{ action: 'stat', minAgeMs: 0, quotaMs: 0, quotaIntervalMs: 0 }] }]);
    assert.match(describeDamon(contexts)!, /vaddr address spaces, a sample every 0 s; stat of regions idle for 0 s\)/);
  });
});
