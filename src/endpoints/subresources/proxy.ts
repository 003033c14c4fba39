/**
 * The proxy subresources of pods, nodes and services. Upstream finds where the request goes (its
 * ResourceLocation for each type), then hands it to an upgrade-aware reverse proxy; this server
 * does the first part with upstream's checks and answers, and cannot do the second (see
 * unreachable.ts). One step of the proxy still shows: a GET of the bare `.../proxy` is redirected
 * to `.../proxy/`.
 */
import { badRequest } from '../../api/errors.js';
import { recordAt, recordsAt, stringAt } from '../../registry/strategies/json-access.js';
import type { RequestContext } from '../../server/request-context.js';
import { writeBody } from '../../server/write-response.js';
import { goQuote } from '../../serialization/go-format.js';
import type { RequestScope } from '../scope.js';
import { kubeletAddress } from './kubelet-address.js';
import { isUpgradeRequest, refuseDryRun } from './connect-request.js';
import type { CoreStores } from './node-bound.js';
import { isIpAddress } from '../../util/ip-address.js';
import { isGlobalUnicast, splitSchemeNamePort, type SchemeNamePort } from './proxy-target.js';
import { serviceEndpointAddress } from './service-proxy.js';
import { joinHostPort, reverseProxyError } from './unreachable.js';

export async function handleProxy(ctx: RequestContext, scope: RequestScope, core: CoreStores): Promise<void> {
  refuseDryRun(ctx.query);
  const address = await targetAddress(ctx, scope, core);
  const method = ctx.req.method ?? '';
  if (!isUpgradeRequest(ctx) && proxyPath(ctx) === '' && (method === 'GET' || method === 'HEAD')) {
    const url = ctx.req.url ?? '';
    const query = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    return writeBody(ctx, 301, 'text/plain', '', { Location: `${ctx.info.path}/${query}` });
  }
  throw reverseProxyError(ctx, address);
}

/** The `host:port` the proxy would dial. */
async function targetAddress(ctx: RequestContext, scope: RequestScope, core: CoreStores): Promise<string> {
  const { resource, singularName } = scope.definition;
  const id = splitSchemeNamePort(scope.name);
  if (!id) throw badRequest(`invalid ${singularName} request ${goQuote(scope.name)}`);
  if (resource === 'pods') return podAddress(ctx, scope, id);
  if (resource === 'nodes') return nodeAddress(scope, id);
  return serviceEndpointAddress(scope, id, core('endpoints'), core('pods'));
}

/** The path after `proxy`, as upstream's getRequestOptions rebuilds it (a trailing slash kept). */
function proxyPath(ctx: RequestContext): string {
  let path = ctx.info.parts.slice(3).join('/');
  if (path !== '' && !path.startsWith('/')) path = `/${path}`;
  if (ctx.info.path.endsWith('/') && !path.endsWith('/')) path += '/';
  return path;
}

/** Upstream's pod ResourceLocation: the pod's first IP, at the port asked for or its first container port. */
async function podAddress(ctx: RequestContext, scope: RequestScope, id: SchemeNamePort): Promise<string> {
  const pod = await scope.store.get(scope.namespace, id.name, { kind: 'consistent' }, ctx.signal);
  const spec = recordAt(pod, 'spec');
  const declared = recordsAt(spec, 'containers').flatMap((c) => recordsAt(c, 'ports'))[0]?.['containerPort'];
  const port = id.port !== '' ? id.port : declared !== undefined ? String(declared) : '';
  const status = recordAt(pod, 'status');
  const ip = stringAt(recordsAt(status, 'podIPs')[0], 'ip') ?? stringAt(status, 'podIP') ?? '';
  if (!isGlobalUnicast(ip)) throw badRequest('address not allowed');
  return joinHostPort(ip, port !== '' ? port : defaultPort(id.scheme));
}

/**
 * Upstream's node ResourceLocation: the kubelet's address, at the port asked for. Upstream also
 * resolves a host name and refuses one that resolves to no global unicast address; with no network
 * here, only an IP address is checked.
 */
async function nodeAddress(scope: RequestScope, id: SchemeNamePort): Promise<string> {
  const kubelet = await kubeletAddress(scope.store, id.name);
  if (isIpAddress(kubelet.host) && !isGlobalUnicast(kubelet.host)) throw badRequest('address not allowed');
  return joinHostPort(kubelet.host, id.port !== '' ? id.port : kubelet.port);
}

/** The port an http(s) client dials when the URL names none. */
function defaultPort(scheme: string): string {
  return scheme === 'https' ? '443' : '80';
}
