/**
 * The heap sampler on this process: what a named function allocates and keeps shows up in what
 * it reads, with about the bytes kept; what was let go is gone after a collection; callers who
 * start it together share one start.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HeapSampler } from '../../src/debug/heap-sampler.js';
import type { SampledHeap, SampledHeapNode } from '../../src/debug/pprof-heap-profile.js';

let kept: string[][] = [];

/** Keeps ~`megabytes` MB of strings, allocated here so that the profile can name this function. */
function keepStrings(megabytes: number): void {
  for (let i = 0; i < megabytes * 1024; i++) kept.push(Array.from({ length: 8 }, (_, j) => `${i}-${j}-`.padEnd(100, 'x')));
}

/** The bytes V8 attributes (its own, scaled estimate) to frames named `name` and what they called. */
function bytesUnder(heap: SampledHeap, name: string): number {
  const all = (node: SampledHeapNode): number => node.selfSize + node.children.reduce((s, c) => s + all(c), 0);
  const find = (node: SampledHeapNode): number => (node.callFrame.functionName === name ? all(node) : node.children.reduce((s, c) => s + find(c), 0));
  return find(heap.head);
}

describe('HeapSampler', () => {
  it('reads the live objects a function allocated, and forgets them once collected', async () => {
    const sampler = new HeapSampler(64 * 1024);
    await sampler.start();
    try {
      assert.equal(sampler.running, true);
      keepStrings(32);
      const withThem = bytesUnder(await sampler.read(true), 'keepStrings');
      assert.ok(withThem > 8e6, `${withThem} bytes under keepStrings`);
      kept = [];
      const without = bytesUnder(await sampler.read(true), 'keepStrings');
      assert.ok(without < withThem / 4, `${without} bytes after letting go, ${withThem} before`);
    } finally {
      sampler.stop();
    }
    assert.equal(sampler.running, false);
    await assert.rejects(sampler.read(false), /not running/);
  });

  it('does not run on when stopped while it starts', async () => {
    const sampler = new HeapSampler(512 * 1024);
    const starting = sampler.start();
    sampler.stop();
    await starting;
    assert.equal(sampler.running, false);
  });

  it('starts once for callers who start it at the same time, and again after a stop', async () => {
    const sampler = new HeapSampler(512 * 1024);
    try {
      await Promise.all([sampler.start(), sampler.start()]);
      assert.ok((await sampler.read(false)).head);
      sampler.stop();
      await sampler.start();
      assert.ok((await sampler.read(false)).head);
    } finally {
      sampler.stop();
    }
  });
});
