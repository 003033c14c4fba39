/**
 * The V8 sampling heap profile to pprof mapping, on a small profile made by hand: in-use objects
 * and bytes scaled back from the samples as V8 and Go scale them, stacks leaf first without the
 * root, and the profile's period and default type.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeHeapProfile, type SampledHeap } from '../../src/debug/pprof-heap-profile.js';
import { decodeProfile } from './pprof-decode.js';

const frame = (functionName: string, lineNumber = 0) => ({ functionName, scriptId: '3', url: 'file:///srv/server.js', lineNumber, columnNumber: 0 });
const INTERVAL = 512 * 1024;

//   (root) 1 ── load 2 ─┬─ parse 3
//                       └─ cache 4
const heap: SampledHeap = {
  head: {
    id: 1, callFrame: frame('(root)'), selfSize: 0,
    children: [{ id: 2, callFrame: frame('load', 9), selfSize: 0, children: [{ id: 3, callFrame: frame('parse', 19), selfSize: 0, children: [] }, { id: 4, callFrame: frame('cache', 29), selfSize: 0, children: [] }] }],
  },
  // Two small objects under parse, one as large as the interval under cache.
  samples: [{ size: 64, nodeId: 3 }, { size: 64, nodeId: 3 }, { size: INTERVAL, nodeId: 4 }],
};

describe('encodeHeapProfile', () => {
  const decoded = decodeProfile(encodeHeapProfile(heap, { takenAtMs: 1_000, intervalBytes: INTERVAL }));

  it('describes its values as Go\'s in-use heap profile does', () => {
    assert.deepEqual(decoded.sampleTypes, ['inuse_objects/count', 'inuse_space/bytes']);
    assert.equal(decoded.periodType, 'space/bytes');
    assert.equal(decoded.period, INTERVAL);
    assert.equal(decoded.defaultSampleType, 'inuse_space');
    assert.equal(decoded.timeNanos, 1_000_000_000n);
  });

  it('scales each sample to the objects it stands for, by its size', () => {
    const byStack = Object.fromEntries(decoded.samples.map((s) => [s.stack.join(' < '), s.values]));
    const small = 1 / (1 - Math.exp(-64 / INTERVAL));
    const large = 1 / (1 - Math.exp(-1));
    assert.deepEqual(byStack, {
      'parse < load': [Math.round(2 * small), Math.round(2 * 64 * small)],
      'cache < load': [Math.round(large), Math.round(INTERVAL * large)],
    });
  });

  it('leaves out a sample whose node is not in the tree', () => {
    const stray = decodeProfile(encodeHeapProfile({ head: heap.head, samples: [...heap.samples, { size: 64, nodeId: 99 }] }, { takenAtMs: 0, intervalBytes: INTERVAL }));
    assert.deepEqual(stray.samples.map((s) => s.stack.join(' < ')).sort(), ['cache < load', 'parse < load']);
  });

  it('has nothing for a heap without samples', () => {
    const empty = decodeProfile(encodeHeapProfile({ head: heap.head, samples: [] }, { takenAtMs: 0, intervalBytes: INTERVAL }));
    assert.deepEqual(empty.samples, []);
    assert.deepEqual(empty.functions, []);
  });
});
