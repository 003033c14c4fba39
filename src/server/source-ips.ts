/**
 * The addresses a request came from, as upstream lists them in audit events (utilnet.SourceIPs):
 * the X-Forwarded-For chain, then X-Real-Ip unless the chain holds it, then the connection's own
 * peer, which cannot be spoofed, unless it already ends the list. Addresses are written as Go
 * writes them (an IPv4-mapped IPv6 peer as plain IPv4).
 */
import { goIpString } from '../util/ip-address.js';
import type { Request } from './request-context.js';

export function sourceIPs(req: Request): string[] {
  const ips: string[] = [];
  const forwardedFor = headerValue(req.headers['x-forwarded-for']);
  if (forwardedFor) {
    for (const part of forwardedFor.split(',')) {
      const ip = goIpString(part.trim());
      if (ip !== undefined) ips.push(ip);
    }
  }
  const realIp = headerValue(req.headers['x-real-ip']);
  if (realIp) {
    const ip = goIpString(realIp);
    if (ip !== undefined && !ips.includes(ip)) ips.push(ip);
  }
  const peer = goIpString(req.socket?.remoteAddress ?? '');
  if (peer !== undefined && ips[ips.length - 1] !== peer) ips.push(peer);
  return ips;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
