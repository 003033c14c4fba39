import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ipv4Range } from '../../../src/registry/allocators/ipv4-range.js';
import { PortRange } from '../../../src/registry/allocators/port-range.js';

test('an IPv4 range excludes network and broadcast; dynamic bands skip the first address and prefer the upper band', () => {
  const range = new Ipv4Range('10.0.0.0/24');
  assert.equal(range.size, 254);
  assert.equal(range.valueAt(0), '10.0.0.1');
  assert.equal(range.valueAt(253), '10.0.0.254');
  assert.equal(range.offsetOf('10.0.0.0'), undefined);
  assert.equal(range.offsetOf('10.0.0.255'), undefined);
  assert.equal(range.offsetOf('10.0.1.1'), undefined);
  assert.equal(range.offsetOf('10.0.0.139'), 138);
  assert.deepEqual(range.dynamicBands, [[16, 254], [1, 16]]);
  assert.deepEqual(new Ipv4Range('10.0.0.0/29').dynamicBands, [[1, 6]]);
});

test('bad CIDRs are refused', () => {
  for (const cidr of ['10.0.0.1/24', '10.0.0.0/31', '10.0.0.0', 'fd00::/64', '300.0.0.0/8']) {
    assert.throws(() => new Ipv4Range(cidr), Error, cidr);
  }
});

test('a port range is inclusive and prefers ports above its static band', () => {
  const range = new PortRange(30000, 32767);
  assert.equal(range.size, 2768);
  assert.equal(range.offsetOf(30000), 0);
  assert.equal(range.offsetOf(32767), 2767);
  assert.equal(range.offsetOf(32768), undefined);
  assert.deepEqual(range.dynamicBands, [[86, 2768], [0, 86]]);
  assert.deepEqual(new PortRange(30000, 30009).dynamicBands, [[0, 10]]);
});
