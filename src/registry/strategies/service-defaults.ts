/**
 * A Service's defaults: upstream's SetDefaults_Service, the IP-family fields its REST layer fills
 * for a single-stack cluster, and what an update inherits from the stored Service (allocated
 * values the client left out, fields a type change makes meaningless).
 */
import { jsonEqual, type KubeObject } from '../object.js';
import { asRecord, asStringArray, defaultTo, recordAt, recordsAt, stringAt, type JsonRecord } from './json-access.js';
import {
  CLUSTER_IP_NONE,
  externallyAccessible,
  hasSelector,
  needsClusterIP,
  needsHealthCheckNodePort,
  needsNodePorts,
  specOf,
} from './service-fields.js';

/** Upstream's default ClientIP affinity timeout (3 hours). */
const CLIENT_IP_TIMEOUT_SECONDS = 10800;

/** SetDefaults_Service, in place. */
export function defaultService(service: KubeObject): void {
  const spec = asRecord(service, 'spec');
  defaultTo(spec, 'sessionAffinity', 'None');
  if (spec['sessionAffinity'] === 'None') delete spec['sessionAffinityConfig'];
  if (spec['sessionAffinity'] === 'ClientIP') {
    const timeout = recordAt(recordAt(spec, 'sessionAffinityConfig'), 'clientIP')?.['timeoutSeconds'];
    if (timeout === undefined || timeout === null) spec['sessionAffinityConfig'] = { clientIP: { timeoutSeconds: CLIENT_IP_TIMEOUT_SECONDS } };
  }
  defaultTo(spec, 'type', 'ClusterIP');
  for (const port of recordsAt(spec, 'ports')) {
    defaultTo(port, 'protocol', 'TCP');
    if (port['targetPort'] === undefined || port['targetPort'] === null || port['targetPort'] === 0 || port['targetPort'] === '') {
      port['targetPort'] = port['port'];
    }
  }
  if (externallyAccessible(service)) defaultTo(spec, 'externalTrafficPolicy', 'Cluster');
  if (['NodePort', 'LoadBalancer', 'ClusterIP'].includes(String(spec['type']))) defaultTo(spec, 'internalTrafficPolicy', 'Cluster');
  if (spec['type'] === 'LoadBalancer') defaultTo(spec, 'allocateLoadBalancerNodePorts', true);
  syncClusterIPs(spec);
}

/** clusterIP and clusterIPs[0] are one value; whichever the client set fills the other. */
function syncClusterIPs(spec: JsonRecord): void {
  const ips = asStringArray(spec['clusterIPs']);
  const ip = stringAt(spec, 'clusterIP') ?? '';
  if (ips.length === 0 && ip !== '') spec['clusterIPs'] = [ip];
  else if (ips.length > 0 && ip === '') spec['clusterIP'] = ips[0];
}

/**
 * The IP-family fields of a single-stack IPv4 cluster: SingleStack and [IPv4], except that a
 * selectorless headless Service asks for RequireDualStack (upstream lets it name every family).
 * ExternalName Services have none.
 */
export function defaultIpFamilies(service: KubeObject): void {
  if (!needsClusterIP(service)) return;
  const spec = asRecord(service, 'spec');
  const headlessSelectorless = (asStringArray(spec['clusterIPs'])[0] ?? '') === CLUSTER_IP_NONE && !hasSelector(service);
  defaultTo(spec, 'ipFamilyPolicy', headlessSelectorless ? 'RequireDualStack' : 'SingleStack');
  if (asStringArray(spec['ipFamilies']).length === 0) spec['ipFamilies'] = ['IPv4'];
  if (headlessSelectorless && spec['ipFamilyPolicy'] !== 'SingleStack' && asStringArray(spec['ipFamilies']).length < 2) {
    spec['ipFamilies'] = [...asStringArray(spec['ipFamilies']), asStringArray(spec['ipFamilies'])[0] === 'IPv6' ? 'IPv4' : 'IPv6'];
  }
}

/**
 * An update inherits the values the server allocated and the client left out (upstream's
 * patchAllocatedValues): the cluster IPs, node ports matched by port name, the health-check port.
 */
export function inheritAllocatedValues(service: KubeObject, old: KubeObject): void {
  const spec = asRecord(service, 'spec');
  const oldSpec = specOf(old);
  if (needsClusterIP(old) && needsClusterIP(service)) {
    if (!stringAt(spec, 'clusterIP') && oldSpec['clusterIP'] !== undefined) spec['clusterIP'] = oldSpec['clusterIP'];
    if (asStringArray(spec['clusterIPs']).length === 0 && oldSpec['clusterIPs'] !== undefined) spec['clusterIPs'] = structuredClone(oldSpec['clusterIPs']);
    if (spec['ipFamilies'] === undefined && oldSpec['ipFamilies'] !== undefined) spec['ipFamilies'] = structuredClone(oldSpec['ipFamilies']);
    if (spec['ipFamilyPolicy'] === undefined && oldSpec['ipFamilyPolicy'] !== undefined) spec['ipFamilyPolicy'] = oldSpec['ipFamilyPolicy'];
  }
  if (needsNodePorts(old) && needsNodePorts(service)) {
    const used = new Set(recordsAt(spec, 'ports').map((p) => p['nodePort']).filter((n) => typeof n === 'number' && n > 0));
    const byName = new Map(recordsAt(oldSpec, 'ports').map((p) => [p['name'] ?? '', p['nodePort']]));
    for (const port of recordsAt(spec, 'ports')) {
      const inherited = byName.get(port['name'] ?? '');
      if (!port['nodePort'] && typeof inherited === 'number' && !used.has(inherited)) port['nodePort'] = inherited;
    }
  }
  if (needsHealthCheckNodePort(old) && needsHealthCheckNodePort(service) && !spec['healthCheckNodePort']) {
    spec['healthCheckNodePort'] = oldSpec['healthCheckNodePort'];
  }
}

/**
 * A type change clears what the new type cannot use, when the client did not touch it (upstream's
 * dropTypeDependentFields): cluster IPs and families when leaving for ExternalName, node ports
 * when leaving NodePort/LoadBalancer, the load-balancer status when leaving LoadBalancer.
 */
export function dropTypeDependentFields(service: KubeObject, old: KubeObject): void {
  const spec = asRecord(service, 'spec');
  const oldSpec = specOf(old);
  if (needsClusterIP(old) && !needsClusterIP(service)) {
    if (jsonEqual(spec['clusterIPs'], oldSpec['clusterIPs']) && spec['clusterIP'] === oldSpec['clusterIP']) {
      delete spec['clusterIP'];
      delete spec['clusterIPs'];
    }
    if (jsonEqual(spec['ipFamilies'], oldSpec['ipFamilies'])) delete spec['ipFamilies'];
    if (spec['ipFamilyPolicy'] === oldSpec['ipFamilyPolicy']) delete spec['ipFamilyPolicy'];
  }
  if (needsNodePorts(old) && !needsNodePorts(service)) {
    const samePorts = jsonEqual(
      recordsAt(spec, 'ports').map((p) => p['nodePort']),
      recordsAt(oldSpec, 'ports').map((p) => p['nodePort']),
    );
    if (samePorts) for (const port of recordsAt(spec, 'ports')) delete port['nodePort'];
  }
  if (needsHealthCheckNodePort(old) && !needsHealthCheckNodePort(service) && spec['healthCheckNodePort'] === oldSpec['healthCheckNodePort']) {
    delete spec['healthCheckNodePort'];
  }
  if (oldSpec['type'] === 'LoadBalancer' && spec['type'] !== 'LoadBalancer') {
    if (spec['allocateLoadBalancerNodePorts'] === oldSpec['allocateLoadBalancerNodePorts']) delete spec['allocateLoadBalancerNodePorts'];
    if (spec['loadBalancerClass'] === oldSpec['loadBalancerClass']) delete spec['loadBalancerClass'];
    asRecord(service, 'status')['loadBalancer'] = {};
  }
}
