/**
 * The addresses a request came from, as upstream lists them in audit events (utilnet.SourceIPs):
 * the X-Forwarded-For chain, then X-Real-Ip unless the chain holds it, then the connection's own
 * peer, which cannot be spoofed, unless it already ends the list. Addresses are written as Go
 * writes them (an IPv4-mapped IPv6 peer as plain IPv4).
 */
import { isIPv4 } from 'node:net';
import { isIPv6Address } from '../util/ip-address.js';
import type { Request } from './request-context.js';

export function sourceIPs(req: Request): string[] {
  const ips: string[] = [];
  const forwardedFor = headerValue(req.headers['x-forwarded-for']);
  if (forwardedFor) {
    for (const part of forwardedFor.split(',')) {
      const ip = canonicalIp(part.trim());
      if (ip !== undefined) ips.push(ip);
    }
  }
  const realIp = headerValue(req.headers['x-real-ip']);
  if (realIp) {
    const ip = canonicalIp(realIp);
    if (ip !== undefined && !ips.includes(ip)) ips.push(ip);
  }
  const peer = canonicalIp(req.socket?.remoteAddress ?? '');
  if (peer !== undefined && ips[ips.length - 1] !== peer) ips.push(peer);
  return ips;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The address in Go's String() form, or undefined for anything that is not an address. */
function canonicalIp(text: string): string | undefined {
  if (isIPv4(text)) return text;
  if (!isIPv6Address(text)) return undefined;
  const host = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16);
    const lo = parseInt(mapped[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return host;
}
