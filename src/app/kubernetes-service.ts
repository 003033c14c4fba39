/**
 * The `kubernetes` Service in `default`, with its Endpoints and EndpointSlice: how clients find the
 * API server by name (`kubernetes.default.svc`), as upstream's bootstrap controller keeps them. The
 * Service takes the first address of the service range (which the serving certificate names); its
 * endpoint is the address the server advertises, at the port it serves on.
 *
 * Each object is created when absent, and its endpoint rewritten when the server moved (another
 * address or port); a replica starting alongside may race, and the loser's AlreadyExists is fine.
 */
import { networkInterfaces } from 'node:os';
import type { KubeObject } from '../registry/object.js';
import { createIfAbsent } from '../registry/store/create-if-absent.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import { jsonEqual } from '../registry/object.js';

const NAME = 'kubernetes';
const NAMESPACE = 'default';
const PORT_NAME = 'https';

export interface KubernetesServiceStores {
  readonly services: ResourceStore;
  readonly endpoints: ResourceStore;
  readonly endpointSlices: ResourceStore | undefined;
}

export interface ApiEndpoint {
  /** The Service's cluster IP: the first address of the primary service range. */
  readonly clusterIp: string;
  /** The address clients reach the server at, and its port. */
  readonly address: string;
  readonly port: number;
}

/**
 * The address to advertise: the bind address, unless it is every interface; then the first
 * non-internal IPv4 address of the machine, else loopback (upstream picks the default route's).
 */
export function advertiseAddress(bindAddress: string): string {
  if (bindAddress !== '' && bindAddress !== '0.0.0.0' && bindAddress !== '::') return bindAddress;
  for (const addresses of Object.values(networkInterfaces())) {
    const external = addresses?.find((a) => a.family === 'IPv4' && !a.internal);
    if (external) return external.address;
  }
  return '127.0.0.1';
}

export async function ensureKubernetesService(stores: KubernetesServiceStores, api: ApiEndpoint): Promise<void> {
  const family = api.clusterIp.includes(':') ? 'IPv6' : 'IPv4';
  await ensure(stores.services, {
    apiVersion: 'v1', kind: 'Service',
    metadata: { name: NAME, labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      ports: [{ name: PORT_NAME, protocol: 'TCP', port: 443, targetPort: api.port }],
      clusterIP: api.clusterIp, clusterIPs: [api.clusterIp], type: 'ClusterIP', sessionAffinity: 'None',
      ipFamilies: [family], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster',
    },
  }, () => false);
  const endpoints = {
    apiVersion: 'v1', kind: 'Endpoints',
    // The EndpointSlice below is written directly, so the mirroring controller is told to skip these.
    metadata: { name: NAME, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: api.address }], ports: [{ name: PORT_NAME, port: api.port, protocol: 'TCP' }] }],
  };
  await ensure(stores.endpoints, endpoints, (current) => !jsonEqual(current['subsets'], endpoints.subsets));
  if (!stores.endpointSlices) return;
  const slice = {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: NAME, labels: { 'kubernetes.io/service-name': NAME } },
    addressType: api.address.includes(':') ? 'IPv6' : 'IPv4',
    endpoints: [{ addresses: [api.address], conditions: { ready: true } }],
    ports: [{ name: PORT_NAME, port: api.port, protocol: 'TCP' }],
  };
  await ensure(stores.endpointSlices, slice, (current) => !jsonEqual(current['endpoints'], slice.endpoints) || !jsonEqual(current['ports'], slice.ports));
}

/** Creates `object` in `default` when absent; rewrites it when `stale` says the stored one is out of date. */
async function ensure(store: ResourceStore, object: KubeObject, stale: (current: KubeObject) => boolean): Promise<void> {
  const current = await createIfAbsent(store, NAMESPACE, object);
  if (!current || !stale(current)) return;
  await store.update(NAMESPACE, NAME, (latest) => ({ ...latest, ...structuredClone(object), metadata: latest.metadata }), { dryRun: false, subresource: '' });
}
