/**
 * Whether a name for a certificate is an IP address rather than a DNS name.
 *
 * Not node:net's isIP: its IPv6 pattern is compiled at its first use, which took 8-10 ms of every
 * start here (the certificate names include `::1`), and a DNS name would try it too. A DNS name
 * never holds the ':' every IPv6 address has; for the rest, the URL parser's IPv6 grammar decides
 * (the WHATWG one, in C++: microseconds). A scope ("%eth0") is refused, where isIP accepts it:
 * a certificate's IP address entry has no room for one.
 */
import { isIPv4 } from 'node:net';

/** Only these can make up an IPv6 address, so nothing else can reach the URL's host syntax. */
const IPV6_CHARACTERS = /^[0-9A-Fa-f:.]+$/;

export function isIpAddress(name: string): boolean {
  if (!name.includes(':')) return isIPv4(name);
  return IPV6_CHARACTERS.test(name) && URL.canParse(`http://[${name}]/`);
}
