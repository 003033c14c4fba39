import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GroupCommitQueue } from '../../../src/storage/sqlite/group-commit.js';

/** A commit function that records its batches and completes them when the test says so. */
function recordingCommit() {
  const batches: number[][] = [];
  const release: Array<(fail?: Error) => void> = [];
  const commit = (items: readonly number[]) =>
    new Promise<number[]>((resolve, reject) => {
      batches.push([...items]);
      release.push((fail) => (fail ? reject(fail) : resolve(items.map((i) => i * 10))));
    });
  return { batches, release, commit };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('GroupCommitQueue', () => {
  it('puts writes issued in the same turn into one batch, and resolves each with its outcome', async () => {
    const { batches, release, commit } = recordingCommit();
    const queue = new GroupCommitQueue(commit, { maxItems: 100, maxBytes: 1000 });
    const results = [1, 2, 3].map((i) => queue.submit(i, 1));
    await turn();
    assert.deepEqual(batches, [[1, 2, 3]]);
    release[0]!();
    assert.deepEqual(await Promise.all(results), [10, 20, 30]);
  });

  it('gathers the writes that arrive during a commit into the next batch', async () => {
    const { batches, release, commit } = recordingCommit();
    const queue = new GroupCommitQueue(commit, { maxItems: 100, maxBytes: 1000 });
    const first = queue.submit(1, 1);
    await turn();
    const later = [2, 3, 4].map((i) => queue.submit(i, 1));
    await turn();
    assert.deepEqual(batches, [[1]], 'one commit at a time');
    release[0]!();
    await first;
    await turn();
    assert.deepEqual(batches, [[1], [2, 3, 4]]);
    release[1]!();
    assert.deepEqual(await Promise.all(later), [20, 30, 40]);
  });

  const limits: ReadonlyArray<{ name: string; maxItems: number; maxBytes: number; sizes: number[]; expected: number[][] }> = [
    { name: 'item count', maxItems: 2, maxBytes: 1000, sizes: [1, 1, 1, 1, 1], expected: [[0, 1], [2, 3], [4]] },
    { name: 'byte size', maxItems: 100, maxBytes: 10, sizes: [4, 4, 4, 20, 1], expected: [[0, 1], [2], [3], [4]] },
  ];
  for (const c of limits) {
    it(`caps a batch by ${c.name}`, async () => {
      const { batches, release, commit } = recordingCommit();
      const queue = new GroupCommitQueue(commit, { maxItems: c.maxItems, maxBytes: c.maxBytes });
      const all = c.sizes.map((size, i) => queue.submit(i, size));
      for (let i = 0; i < c.expected.length; i++) {
        await turn();
        release[i]!();
        await turn();
      }
      await Promise.all(all);
      assert.deepEqual(batches, c.expected);
    });
  }

  it('a failed commit rejects its own batch only', async () => {
    const { release, commit } = recordingCommit();
    const queue = new GroupCommitQueue(commit, { maxItems: 100, maxBytes: 1000 });
    const failing = queue.submit(1, 1);
    await turn();
    const next = queue.submit(2, 1);
    release[0]!(new Error('disk full'));
    await assert.rejects(failing, /disk full/);
    await turn();
    release[1]!();
    assert.equal(await next, 20);
  });

  it('drain waits for every submitted write', async () => {
    const { release, commit } = recordingCommit();
    const queue = new GroupCommitQueue(commit, { maxItems: 100, maxBytes: 1000 });
    let done = false;
    void queue.submit(1, 1).then(() => (done = true));
    const drained = queue.drain();
    await turn();
    release[0]!();
    await drained;
    assert.equal(done, true);
  });
});
