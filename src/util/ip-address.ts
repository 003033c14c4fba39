/**
 * IP address literals, as Go's net.ParseIP reads them: dotted IPv4, or IPv6 (also with an IPv4
 * tail), never with a scope ("%eth0"). Certificate names, proxy targets, CIDR flags and IP flags
 * all ask this one question; CIDRs and certificates also need its value.
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

/**
 * The address as Go's net.IP String() writes it: IPv4 dotted, IPv6 in its canonical compressed
 * form, an IPv4-mapped IPv6 address (::ffff:1.2.3.4) as plain IPv4. Undefined for anything else.
 */
export function goIpString(text: string): string | undefined {
  const family = ipFamily(text);
  if (family !== 6) return family === 4 ? text : undefined;
  // The URL parser writes an IPv6 address in its canonical, compressed form.
  const canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return canonical;
  const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** An IPv4 or IPv6 address, rather than a host name. */
export function isIpAddress(text: string): boolean {
  return ipFamily(text) !== undefined;
}

/** The address as an unsigned integer (32 or 128 bits) with its family; undefined for anything else. */
export function ipAddressValue(text: string): { readonly family: 4 | 6; readonly value: bigint } | undefined {
  const family = ipFamily(text);
  if (family === undefined) return undefined;
  return { family, value: family === 4 ? ipv4Value(text) : ipv6Value(text) };
}

/** The address's 4 or 16 bytes in network order (as an X.509 iPAddress name holds it). Throws for a non-address. */
export function ipAddressBytes(text: string): Uint8Array {
  const parsed = ipAddressValue(text);
  if (!parsed) throw new Error(`not an IP address: ${text}`);
  const bytes = new Uint8Array(parsed.family === 4 ? 4 : 16);
  let value = parsed.value;
  for (let i = bytes.length - 1; i >= 0; i--, value >>= 8n) bytes[i] = Number(value & 0xffn);
  return bytes;
}

function ipv4Value(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Value(address: string): bigint {
  let text = address;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipv4Value(v4[1]!);
    text = text.slice(0, -v4[1]!.length) + `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

