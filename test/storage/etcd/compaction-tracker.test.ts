import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompactionTracker } from '../../../src/storage/etcd/compaction-tracker.js';

/** A fake etcd whose compactMainRev is `compactedAt`, counting the probes it answers. */
function fakeStore(state: { compactedAt: number; current: number }) {
  const probes: number[] = [];
  const tracker = new CompactionTracker(
    async (revision) => {
      probes.push(revision);
      return revision >= state.compactedAt ? 'readable' : 'compacted';
    },
    async () => state.current,
  );
  return { tracker, probes };
}

describe('CompactionTracker', () => {
  it('answers 1 with one probe when nothing was compacted', async () => {
    const { tracker, probes } = fakeStore({ compactedAt: 1, current: 50 });
    assert.equal(await tracker.compactedRevision(), 1);
    assert.deepEqual(probes, [1]);
  });

  it('finds a compaction made by someone else by binary search, then confirms it with one probe', async () => {
    const { tracker, probes } = fakeStore({ compactedAt: 700, current: 1000 });
    assert.equal(await tracker.compactedRevision(), 700);
    assert.ok(probes.length <= 12, `${probes.length} probes`);
    probes.length = 0;
    assert.equal(await tracker.compactedRevision(), 700);
    assert.deepEqual(probes, [700]);
  });

  it('trusts its own compactions as the starting bound', async () => {
    const state = { compactedAt: 1, current: 1000 };
    const { tracker, probes } = fakeStore(state);
    state.compactedAt = 640;
    tracker.noteCompaction(640);
    assert.equal(await tracker.compactedRevision(), 640);
    assert.deepEqual(probes, [640]);
  });

  it('learns from reads that failed as compacted', async () => {
    const { tracker } = fakeStore({ compactedAt: 300, current: 301 });
    tracker.noteCompactedRead(299);
    assert.equal(await tracker.compactedRevision(), 300);
  });

  it('never goes back below a bound it knows', async () => {
    const state = { compactedAt: 500, current: 900 };
    const { tracker } = fakeStore(state);
    assert.equal(await tracker.compactedRevision(), 500);
    state.compactedAt = 1; // a fake that "forgets": the answer stays
    assert.equal(await tracker.compactedRevision(), 500);
  });

  it('shares one search between concurrent callers', async () => {
    const alone = fakeStore({ compactedAt: 77, current: 100 });
    await alone.tracker.compactedRevision();
    const together = fakeStore({ compactedAt: 77, current: 100 });
    const answers = await Promise.all([1, 2, 3].map(() => together.tracker.compactedRevision()));
    assert.deepEqual(answers, [77, 77, 77]);
    assert.deepEqual(together.probes, alone.probes);
  });
});
