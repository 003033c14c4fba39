/**
 * The parts of a proxy request's name and the addresses a proxy may dial, as upstream's
 * utilnet.SplitSchemeNamePort and net.IP.IsGlobalUnicast decide them.
 */
import { ipFamily } from '../../util/ip-address.js';

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
  // The URL parser writes an IPv6 address in its canonical, compressed form.
  const canonical = new URL(`http://[${ip}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return isGlobalUnicast(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  const first = canonical.startsWith('::') ? 0 : parseInt(canonical.split(':')[0]!, 16);
  return canonical !== '::' && canonical !== '::1' && first >> 8 !== 0xff && (first & 0xffc0) !== 0xfe80;
}
