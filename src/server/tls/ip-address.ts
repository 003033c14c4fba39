/**
 * Whether a name for a certificate is an IP address rather than a DNS name. Node's isIP tries its
 * IPv6 pattern on every string that is not IPv4, and compiling that pattern took ~5 ms of each
 * start at the first DNS name (`localhost`). A DNS name never holds the ':' every IPv6 address has.
 */
import { isIPv4, isIPv6 } from 'node:net';

export function isIpAddress(name: string): boolean {
  return name.includes(':') ? isIPv6(name) : isIPv4(name);
}
