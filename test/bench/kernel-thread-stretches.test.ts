/**
 * The stretches in which a kernel thread ran (bench/e2e/kernel-thread-stretches.ts): found from
 * CPU-time readings, summed up and worded; and the sampler on this machine's kernel threads.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeStretches, KernelThreadSampler, RunStretches, summarize } from '../../bench/e2e/kernel-thread-stretches.js';

describe('kernel thread stretches', () => {
  it('makes one stretch of the intervals in a row in which the thread ran, and sums its CPU time', () => {
    const runs = new RunStretches();
    // CPU time so far (ms), read every 10 ms: idle, 2 ms, idle, then 9 + 10 + 4 ms in a row, idle.
    for (const cpuMs of [100, 100, 102, 102, 111, 121, 125, 125, 125]) runs.add(cpuMs);
    assert.deepEqual(runs.stretches, [2, 23]);
  });

  it('counts the stretch under way once it is ended, and nothing for a thread that never ran', () => {
    const running = new RunStretches();
    for (const cpuMs of [0, 10, 20]) running.add(cpuMs);
    assert.deepEqual(running.stretches, []);
    running.end();
    assert.deepEqual(running.stretches, [20]);
    const idle = new RunStretches();
    for (const cpuMs of [5, 5, 5]) idle.add(cpuMs);
    idle.end();
    assert.deepEqual(idle.stretches, []);
  });

  it('words the long stretches, the longest and the total', () => {
    assert.equal(
      describeStretches(summarize(['kdamond.0'], [2, 23, 48.4, 19.9, 20])),
      'kdamond.0 ran 3 times for 20 ms or more (the longest 48 ms; 113 ms in all)',
    );
    assert.equal(describeStretches(summarize(['kdamond.0'], [21])), 'kdamond.0 ran 1 time for 20 ms or more (the longest 21 ms; 21 ms in all)');
    assert.equal(describeStretches(summarize(['kdamond.0', 'kdamond.1'], [1, 2])), 'kdamond.0, kdamond.1 ran for less than 20 ms at a time (3 ms in all)');
  });

  it('samples the kernel threads it finds, and finds none by a name no thread has', async (t) => {
    assert.equal(KernelThreadSampler.start('no-such-kernel-thread-'), undefined);
    // kthreadd is the parent of every kernel thread; where /proc shows it with scheduler statistics,
    // the sampler reads it.
    const sampler = KernelThreadSampler.start('kthreadd');
    if (sampler === undefined) {
      t.skip('this machine shows no kthreadd with scheduler statistics');
      return;
    }
    await new Promise((r) => setTimeout(r, 30));
    const summary = sampler.stop();
    assert.deepEqual(summary.threads, ['kthreadd']);
    assert.ok(summary.totalMs >= 0 && summary.long >= 0, JSON.stringify(summary));
  });
});
