import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMicroTime, formatTime, parseRfc3339 } from '../../../src/serialization/protobuf/rfc3339.js';

describe('RFC 3339', () => {
  const parses: [text: string, seconds: number, nanos: number][] = [
    ['1970-01-01T00:00:00Z', 0, 0],
    ['2026-11-21T08:42:17Z', 1795250537, 0],
    ['2026-11-21T09:42:17+01:00', 1795250537, 0],
    ['2026-11-21T08:42:17.5Z', 1795250537, 500_000_000],
    ['2026-11-21T08:42:17.123456789Z', 1795250537, 123_456_789],
    ['1969-12-31T23:59:59Z', -1, 0],
    ['0001-01-01T00:00:00Z', -62135596800, 0],
    ['2024-02-29T00:00:00Z', 1709164800, 0],
  ];
  for (const [text, seconds, nanos] of parses) {
    it(`parses ${text}`, () => assert.deepEqual(parseRfc3339(text), { seconds, nanos }));
  }

  for (const bad of ['', '2026-11-21', '2026-11-21 08:42:17Z', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-11-21T24:00:00Z', '2026-11-21T08:42:17', '2026-11-21T08:42:17.Z']) {
    it(`rejects ${JSON.stringify(bad)}`, () => assert.equal(parseRfc3339(bad), undefined));
  }

  it('formats Time with whole seconds', () => {
    assert.equal(formatTime(1795250537), '2026-11-21T08:42:17Z');
    assert.equal(formatTime(-1), '1969-12-31T23:59:59Z');
    assert.equal(formatTime(1e20), undefined);
  });

  it('formats MicroTime with six digits, truncating nanoseconds', () => {
    assert.equal(formatMicroTime(1795250537, 0), '2026-11-21T08:42:17.000000Z');
    assert.equal(formatMicroTime(1795250537, 123_456_789), '2026-11-21T08:42:17.123456Z');
    assert.equal(formatMicroTime(0, 999), '1970-01-01T00:00:00.000000Z');
  });
});
