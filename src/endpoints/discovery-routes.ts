/**
 * The discovery paths over HTTP: /api, /api/v1, /apis, /apis/{group}, /apis/{group}/{version},
 * and the aggregated documents kubectl 1.30+ asks for first by media type on /api and /apis.
 */
import type { Handler, RequestContext } from '../server/request-context.js';
import type { Catalog } from '../registry/catalog/catalog.js';
import { aggregatedDiscovery, aggregatedDiscoveryMediaType, discoveryETag } from '../discovery/aggregated-discovery.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from '../discovery/legacy-discovery.js';
import type { AggregatedDiscoveryVersion } from '../discovery/discovery-types.js';
import { sendBody } from './respond.js';
import { pathNotFound } from '../api/errors.js';
import { parseAccept } from '../serialization/media-type.js';

export interface DiscoveryDeps {
  readonly catalog: () => Catalog;
  /** `host:port` clients use to reach the server (for /api's serverAddressByClientCIDRs). */
  readonly serverAddress: () => string;
}

/** The aggregated discovery document the Accept header asks for, if any: its version and the group as spelled. */
interface AggregatedAsk {
  readonly version: AggregatedDiscoveryVersion;
  /** apidiscovery.k8s.io or apidiscovery.cluster.io: the answer uses the client's spelling. */
  readonly group: string;
}

/** Media types of the plain discovery documents (served as JSON whichever of them is asked for). */
const PLAIN_TYPES = new Set(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/*', '*/*']);
const DISCOVERY_GROUPS = new Set(['apidiscovery.k8s.io', 'apidiscovery.cluster.io']);

/**
 * Whether `accept` asks for an aggregated document, as upstream negotiates it: the most preferred
 * clause the server can serve decides (by quality, then specificity, then order). An aggregated
 * clause in JSON is served; a plain type without `as` means the plain document; anything else (an
 * aggregated document in Protobuf, text/html) is passed over for the next clause.
 */
export function aggregatedAsked(accept: string | undefined): AggregatedAsk | undefined {
  for (const clause of parseAccept(accept ?? '')) {
    const as = clause.params.get('as');
    const type = `${clause.type}/${clause.subtype}`;
    if (as === undefined) {
      if (PLAIN_TYPES.has(type)) return undefined;
      continue;
    }
    const group = clause.params.get('g') ?? '';
    const version = clause.params.get('v');
    if (type === 'application/json' && as === 'APIGroupDiscoveryList' && DISCOVERY_GROUPS.has(group) && (version === 'v2' || version === 'v2beta1')) {
      return { version, group };
    }
  }
  return undefined;
}

function sendDocument(ctx: RequestContext, value: unknown, contentType = 'application/json'): Promise<void> {
  const body = JSON.stringify(value);
  ctx.res.setHeader('Vary', 'Accept');
  if (contentType !== 'application/json') ctx.res.setHeader('ETag', discoveryETag(body));
  return sendBody(ctx, 200, contentType, Buffer.from(body));
}

/** The discovery handlers, for the router's exact paths and prefixes. */
export function discoveryHandlers(deps: DiscoveryDeps): { legacyRoot: Handler; groupsRoot: Handler; groupPaths: Handler } {
  /** Sends the aggregated document when the client asked for one; undefined when it did not. */
  const aggregated = (ctx: RequestContext, root: 'api' | 'apis'): Promise<void> | undefined => {
    const asked = aggregatedAsked(ctx.req.headers['accept'] as string | undefined);
    if (!asked) return undefined;
    const document = { ...aggregatedDiscovery(deps.catalog(), root, asked.version), apiVersion: `${asked.group}/${asked.version}` };
    return sendDocument(ctx, document, aggregatedDiscoveryMediaType(asked.version).replace('apidiscovery.k8s.io', asked.group));
  };
  return {
    legacyRoot: (ctx) => aggregated(ctx, 'api') ?? sendDocument(ctx, apiVersions(deps.catalog(), deps.serverAddress())),
    groupsRoot: (ctx) => aggregated(ctx, 'apis') ?? sendDocument(ctx, apiGroupList(deps.catalog())),
    /** /api/{version}, /apis/{group}, /apis/{group}/{version}. */
    groupPaths: async (ctx) => {
      const parts = ctx.info.path.split('/').filter((p) => p !== '');
      const catalog = deps.catalog();
      let doc: unknown;
      if (parts[0] === 'api' && parts.length === 2) doc = apiResourceList(catalog, '', parts[1]!);
      else if (parts[0] === 'apis' && parts.length === 2) doc = apiGroup(catalog, parts[1]!);
      else if (parts[0] === 'apis' && parts.length === 3) doc = apiResourceList(catalog, parts[1]!, parts[2]!);
      if (doc === undefined) throw pathNotFound();
      await sendDocument(ctx, doc);
    },
  };
}
