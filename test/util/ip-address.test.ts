/**
 * isIpAddress answers as node:net's isIP does (without its IPv6 pattern), except for scoped IPv6
 * addresses, which Go's net.ParseIP refuses; and the proxy's global-unicast check, which uses it,
 * refuses a scoped address instead of failing on it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { goIpString, ipAddressBytes, ipAddressValue, isIPv6Address, isIpAddress } from '../../src/util/ip-address.js';
import { isGlobalUnicast } from '../../src/endpoints/subresources/proxy-target.js';

describe('isIpAddress', () => {
  it('agrees with isIP on addresses, names and near misses', () => {
    const inputs = ['127.0.0.1', '0.0.0.0', '10.96.0.1', '::1', '::', 'fe80::1', '2001:db8::8a2e:370:7334', '::ffff:192.0.2.1',
      'localhost', 'kubernetes.default.svc', 'capstan', '', '1.2.3', '1.2.3.4.5', '256.1.1.1', ':::', '1:2', 'host:443', '1.2.3.4:80',
      '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1::2::3', '12345::', '::1.2.3.04', '::1.2.3.256', '1:2:3:4:5:6:1.2.3.4', 'FE80::ABCD', '[::1]', '::1]/x', ' ::1'];
    for (const input of inputs) assert.equal(isIpAddress(input), isIP(input) !== 0, JSON.stringify(input));
  });

  it('refuses a scoped IPv6 address, which isIP accepts', () => {
    assert.equal(isIP('fe80::1%eth0'), 6);
    assert.equal(isIpAddress('fe80::1%eth0'), false);
  });

  it('finds IPv6 addresses only, and IPv4 ones not', () => {
    assert.equal(isIPv6Address('2001:db8::1'), true);
    assert.equal(isIPv6Address('::ffff:192.0.2.1'), true);
    assert.equal(isIPv6Address('192.0.2.1'), false);
    assert.equal(isIPv6Address('2001:db8::1%eth0'), false);
  });

  it('lets the proxy refuse a scoped pod or node address (it threw from the URL parser)', () => {
    assert.equal(isGlobalUnicast('2001:db8::1%eth0'), false);
    assert.equal(isGlobalUnicast('2001:db8::1'), true);
    assert.equal(isGlobalUnicast('fe80::1'), false);
  });
});

describe('ipAddressBytes', () => {
  it('gives an address in network order, 4 bytes for IPv4 and 16 for IPv6', () => {
    assert.deepEqual([...ipAddressBytes('127.0.0.1')], [127, 0, 0, 1]);
    assert.deepEqual([...ipAddressBytes('10.96.0.1')], [10, 96, 0, 1]);
    assert.deepEqual([...ipAddressBytes('::1')], [...Array<number>(15).fill(0), 1]);
    assert.deepEqual([...ipAddressBytes('2001:db8::8a2e:370:7334')], [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0x8a, 0x2e, 0x03, 0x70, 0x73, 0x34]);
    assert.deepEqual([...ipAddressBytes('::ffff:192.0.2.1')], [...Array<number>(10).fill(0), 0xff, 0xff, 192, 0, 2, 1]);
  });

  it('refuses what is not an address', () => {
    assert.throws(() => ipAddressBytes('localhost'), /not an IP address: localhost/);
    assert.equal(ipAddressValue('1.2.3'), undefined);
    assert.deepEqual(ipAddressValue('0.0.1.0'), { family: 4, value: 256n });
  });
});

describe('goIpString', () => {
  it('writes addresses as Go\'s net.IP String() does', () => {
    assert.equal(goIpString('10.0.0.1'), '10.0.0.1');
    assert.equal(goIpString('2001:DB8:0:0:0:0:0:1'), '2001:db8::1');
    assert.equal(goIpString('::ffff:127.0.0.1'), '127.0.0.1', 'an IPv4-mapped address as IPv4');
    assert.equal(goIpString('::ffff:7f00:1'), '127.0.0.1');
    assert.equal(goIpString('::1'), '::1');
    assert.equal(goIpString('example.com'), undefined);
    assert.equal(goIpString(''), undefined);
  });
});
