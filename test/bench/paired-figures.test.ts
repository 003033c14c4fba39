import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { summarizePairs } from '../../bench/paired/paired-figures.js';

describe('summarizePairs', () => {
  it('takes the median of the rounds\' ratios, so that a slow spell hitting both sides cancels', () => {
    // The machine halves its speed in round 2: both sides slow down, their ratio holds.
    const old = [{ rate: 100, mainMicros: 10 }, { rate: 50, mainMicros: 20 }, { rate: 100, mainMicros: 10 }];
    const newer = [{ rate: 110, mainMicros: 9 }, { rate: 55, mainMicros: 18 }, { rate: 105, mainMicros: 9.5 }];
    const s = summarizePairs(old, newer);
    assert.equal(s.rateRatio.toFixed(3), '1.100');
    assert.equal(s.cpuRatio.toFixed(3), '0.900');
    assert.deepEqual(s.old, { rate: 100, mainMicros: 10 });
    assert.deepEqual(s.new, { rate: 105, mainMicros: 9.5 });
  });

  it('leaves out of the CPU ratio the rounds whose CPU could not be read', () => {
    const s = summarizePairs([{ rate: 100, mainMicros: undefined }, { rate: 100, mainMicros: 10 }], [{ rate: 100, mainMicros: 5 }, { rate: 100, mainMicros: 12 }]);
    assert.equal(s.cpuRatio, 1.2);
  });

  it('refuses rounds that do not pair up', () => {
    assert.throws(() => summarizePairs([{ rate: 1, mainMicros: 1 }], []), /1 old against 0 new/);
  });
});
