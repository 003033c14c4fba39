/**
 * The profilers of several servers in one process: V8 has one sampling heap profiler, so they
 * share it, and it runs until the last of them stops (a server that stops first must not end the
 * others' heap profiles).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Profilers } from '../../src/debug/profilers.js';

describe('Profilers', () => {
  it('share one heap sampler, which stops with the last of them', async () => {
    const first = new Profilers();
    const second = new Profilers();
    await Promise.all([first.startHeapSampling(), second.startHeapSampling()]);
    const { heap } = await second.load();
    assert.equal((await first.load()).heap, heap);
    first.stop();
    assert.equal(heap.running, true);
    assert.ok((await heap.read(false)).head, 'the second server still reads its heap');
    second.stop();
    assert.equal(heap.running, false);
  });

  it('start nothing once stopped', async () => {
    const profilers = new Profilers();
    profilers.stop();
    await profilers.startHeapSampling();
    assert.equal((await profilers.load()).heap.running, false);
  });
});
