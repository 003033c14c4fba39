/**
 * The parts of a proxy request's name and the addresses a proxy may dial, as upstream's
 * utilnet.SplitSchemeNamePort and net.IP.IsGlobalUnicast decide them.
 */
import { goIpString, ipFamily } from '../../util/ip-address.js';

export interface SchemeNamePort {
  readonly scheme: string;
  readonly name: string;
  readonly port: string;
}

/** `name`, `name:port` or `scheme:name:port` (scheme http or https); undefined when malformed. */
export function splitSchemeNamePort(id: string): SchemeNamePort | undefined {
  const parts = id.split(':');
  if (parts.length > 3) return undefined;
  const [scheme, name, port] = parts.length === 3 ? parts : ['', parts[0]!, parts[1] ?? ''];
  return name !== '' && ['', 'http', 'https'].includes(scheme!) ? { scheme: scheme!, name: name!, port: port! } : undefined;
}

/**
 * Go's IsGlobalUnicast: an IP that is not unspecified, loopback, multicast, link-local or the IPv4
 * broadcast address. Private ranges qualify. Anything but an IP does not.
 */
export function isGlobalUnicast(ip: string): boolean {
  const family = ipFamily(ip);
  if (family === 4) {
    const [a, b] = ip.split('.').map(Number) as [number, number];
    return ip !== '0.0.0.0' && ip !== '255.255.255.255' && a !== 127 && !(a >= 224 && a <= 239) && !(a === 169 && b === 254);
  }
  if (family !== 6) return false;
  const canonical = goIpString(ip)!;
  // An IPv4-mapped address is judged as the IPv4 address it maps.
  if (ipFamily(canonical) === 4) return isGlobalUnicast(canonical);
  const first = canonical.startsWith('::') ? 0 : parseInt(canonical.split(':')[0]!, 16);
  return canonical !== '::' && canonical !== '::1' && first >> 8 !== 0xff && (first & 0xffc0) !== 0xfe80;
}
