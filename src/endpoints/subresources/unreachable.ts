/**
 * What upstream answers once it knows where a request must go (a kubelet, a pod, a service
 * endpoint) but cannot connect there. This server has no network to nodes and pods, so every such
 * connection fails as a dial without a route does, `dial tcp <address>: connect: network is
 * unreachable`, and the client gets that failure wrapped as the upstream component that dials
 * would wrap it.
 */
import { ApiError, badRequest, serviceUnavailable } from '../../api/errors.js';
import type { RequestContext } from '../../server/request-context.js';
import { goQuote } from '../../serialization/go-format.js';
import { isUpgradeRequest } from './connect-request.js';

/** `host:port`, with an IPv6 host in brackets (Go's net.JoinHostPort). */
export function joinHostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

function dialFailure(address: string): string {
  return `dial tcp ${address}: connect: network is unreachable`;
}

/**
 * exec, attach and portforward: upstream's upgrade-aware proxy refuses a plain request (400) and
 * reports the failed dial of an upgrade as a plain error, which becomes a 500 without a reason.
 */
export function streamProxyError(ctx: RequestContext, address: string): ApiError {
  if (!isUpgradeRequest(ctx)) return badRequest('Upgrade request required');
  return new ApiError(500, '', `error dialing backend: ${dialFailure(address)}`);
}

/** The proxy subresources: upstream's proxy transport answers 503; an upgrade fails as for exec. */
export function reverseProxyError(ctx: RequestContext, address: string): ApiError {
  if (isUpgradeRequest(ctx)) return streamProxyError(ctx, address);
  return serviceUnavailable(`error trying to reach service: ${dialFailure(address)}`);
}

/** pods/log: the kubelet fetch fails as Go's http.Client reports it (a 500 without a reason). */
export function logFetchError(url: string, address: string): ApiError {
  return new ApiError(500, '', `Get ${goQuote(url)}: ${dialFailure(address)}`);
}
