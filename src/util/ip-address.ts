/**
 * IP address literals, as Go's net.ParseIP reads them: dotted IPv4, or IPv6 (also with an IPv4
 * tail), never with a scope ("%eth0"). Certificate names, proxy targets, CIDR flags and IP flags
 * all ask this one question.
 *
 * Not node:net's isIPv6: its pattern is compiled at its first use, which took 8-10 ms of every
 * start here (the serving certificate's names include `::1`), and it accepts a scope, which Go
 * refuses and which the URL parser (used to put an address in canonical form) throws on. The URL
 * parser's IPv6 grammar (the WHATWG one, in C++: microseconds) decides instead.
 */
import { isIPv4 } from 'node:net';

/** Only these can make up an IPv6 address, so nothing else can reach the URL's host syntax. */
const IPV6_CHARACTERS = /^[0-9A-Fa-f:.]+$/;

export function isIPv6Address(text: string): boolean {
  return text.includes(':') && IPV6_CHARACTERS.test(text) && URL.canParse(`http://[${text}]/`);
}

/** 4 or 6 for an IPv4 or IPv6 address, undefined for anything else (a host name, say). */
export function ipFamily(text: string): 4 | 6 | undefined {
  // A host name never holds the ':' every IPv6 address has.
  if (text.includes(':')) return isIPv6Address(text) ? 6 : undefined;
  return isIPv4(text) ? 4 : undefined;
}

/** An IPv4 or IPv6 address, rather than a host name. */
export function isIpAddress(text: string): boolean {
  return ipFamily(text) !== undefined;
}
