import { test } from 'node:test';
import assert from 'node:assert/strict';
import { humanDuration, since } from '../../../src/endpoints/table/human-duration.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

const cases: readonly [ms: number, expected: string][] = [
  [-2 * S, '<invalid>'],
  [-1999, '0s'],
  [-1 * S, '0s'],
  [-500, '0s'],
  [0, '0s'],
  [999, '0s'],
  [5 * S, '5s'],
  [119 * S, '119s'],
  [120 * S, '2m'],
  [200 * S, '3m20s'],
  [9 * M + 59 * S, '9m59s'],
  [10 * M, '10m'],
  [10 * M + 30 * S, '10m'],
  [179 * M, '179m'],
  [180 * M, '3h'],
  [3 * H + 5 * M, '3h5m'],
  [7 * H + 59 * M, '7h59m'],
  [8 * H, '8h'],
  [47 * H + 59 * M, '47h'],
  [48 * H, '2d'],
  [2 * D + 5 * H, '2d5h'],
  [7 * D + 23 * H, '7d23h'],
  [8 * D, '8d'],
  [8 * D + 5 * H, '8d'],
  [729 * D, '729d'],
  [730 * D, '2y'],
  [3 * Y + 45 * D, '3y45d'],
  [8 * Y - D, '7y364d'],
  [8 * Y, '8y'],
  [20 * Y + 100 * D, '20y'],
];

for (const [ms, expected] of cases) {
  test(`humanDuration(${ms}) is ${expected}`, () => {
    assert.equal(humanDuration(ms), expected);
  });
}

test('since() reads RFC 3339 and reports <unknown> without a timestamp', () => {
  const now = Date.parse('2026-11-21T08:42:21Z');
  assert.equal(since('2026-11-21T08:42:17Z', now), '4s');
  assert.equal(since(undefined, now), '<unknown>');
  assert.equal(since(null, now), '<unknown>');
  assert.equal(since('', now), '<unknown>');
});
