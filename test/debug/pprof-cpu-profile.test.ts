/**
 * The V8 profile to pprof mapping, on a small profile made by hand: stacks leaf first without the
 * root, one function per distinct frame however many call tree nodes it has, idle samples left
 * out, values as Go's CPU profiles give them, and the profile's time, duration and period.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Profiler } from 'node:inspector';
import { encodeCpuProfile } from '../../src/debug/pprof-cpu-profile.js';
import { decodeProfile } from './pprof-decode.js';

const frame = (functionName: string, url = 'file:///srv/server.js', lineNumber = 0): Profiler.ProfileNode['callFrame'] => ({ functionName, scriptId: url === '' ? '0' : '7', url, lineNumber, columnNumber: 4 });

//   (root) 1 ─┬─ main 2 ─┬─ parse 3
//             │          └─ helper 4 ── parse 5   (parse again: the same function, another node)
//             ├─ (garbage collector) 6
//             └─ (idle) 7
const profile: Profiler.Profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 6, 7] },
    { id: 2, callFrame: frame('main', 'file:///srv/server.js', 9), children: [3, 4] },
    { id: 3, callFrame: frame('parse', 'file:///srv/json.js', 41) },
    { id: 4, callFrame: frame('', 'file:///srv/server.js', 99), children: [5] },
    { id: 5, callFrame: frame('parse', 'file:///srv/json.js', 41) },
    { id: 6, callFrame: frame('(garbage collector)', '') },
    { id: 7, callFrame: frame('(idle)', '') },
  ],
  startTime: 5_000_000,
  endTime: 5_250_000,
  samples: [3, 3, 7, 5, 6, 7, 2],
  timeDeltas: [1000, 1200, 5000, 900, 2000, 8000, 1100],
};

describe('encodeCpuProfile', () => {
  const decoded = decodeProfile(encodeCpuProfile(profile, { startedAtMs: 1_764_000_000_123, intervalUs: 1000 }));

  it('describes its values as Go\'s CPU profiles do', () => {
    assert.deepEqual(decoded.sampleTypes, ['samples/count', 'cpu/nanoseconds']);
    assert.equal(decoded.periodType, 'cpu/nanoseconds');
    assert.equal(decoded.period, 1_000_000);
    assert.equal(decoded.defaultSampleType, 'cpu');
    assert.equal(decoded.strings[0], '');
  });

  it('gives the wall clock of the start and the length of the recording', () => {
    assert.equal(decoded.timeNanos, 1_764_000_000_123_000_000n);
    assert.equal(decoded.durationNanos, 250_000_000);
  });

  it('has a sample per node that was on top, its stack leaf first and without the root, idle left out', () => {
    const byStack = new Map(decoded.samples.map((s) => [s.stack.join(' < '), s.values]));
    assert.deepEqual(Object.fromEntries(byStack), {
      'parse < main': [2, 2_200_000],
      'parse < (anonymous) < main': [1, 900_000],
      '(garbage collector)': [1, 2_000_000],
      main: [1, 1_100_000],
    });
    assert.deepEqual(decoded.samples.find((s) => s.stack[0] === 'parse' && s.stack.length === 3)?.lines, [42, 100, 10]);
  });

  it('has one function per distinct frame, with its file and first line', () => {
    const parses = decoded.functions.filter((f) => f.name === 'parse');
    assert.deepEqual(parses, [{ name: 'parse', filename: 'file:///srv/json.js', startLine: 42 }]);
    assert.deepEqual(decoded.functions.map((f) => f.name).sort(), ['(anonymous)', '(garbage collector)', 'main', 'parse']);
  });

  it('leaves out a sample whose node is not in the profile', () => {
    const stray = decodeProfile(encodeCpuProfile({ ...profile, samples: [3, 99], timeDeltas: [1000, 1000] }, { startedAtMs: 0, intervalUs: 1000 }));
    assert.deepEqual(stray.samples.map((s) => s.stack.join(' < ')), ['parse < main']);
  });

  it('encodes a profile without samples', () => {
    const empty = decodeProfile(encodeCpuProfile({ nodes: [profile.nodes[0]!], startTime: 1, endTime: 1, samples: [], timeDeltas: [] }, { startedAtMs: 0, intervalUs: 1000 }));
    assert.deepEqual(empty.samples, []);
    assert.deepEqual(empty.functions, []);
    assert.deepEqual(empty.sampleTypes, ['samples/count', 'cpu/nanoseconds']);
  });
});
