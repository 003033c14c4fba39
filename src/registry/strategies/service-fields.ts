/**
 * Reading a Service's spec the way upstream's service helpers do: which types need a cluster IP,
 * node ports or a health-check node port.
 */
import type { KubeObject } from '../object.js';
import { asStringArray, isRecord, recordAt, recordsAt, stringAt, type JsonRecord } from './json-access.js';

export const CLUSTER_IP_NONE = 'None';

export function specOf(service: KubeObject): JsonRecord {
  return recordAt(service, 'spec') ?? {};
}

export function serviceType(service: KubeObject): string {
  return stringAt(specOf(service), 'type') ?? 'ClusterIP';
}

/** Every type but ExternalName has a cluster IP (or "None"). */
export function needsClusterIP(service: KubeObject): boolean {
  return serviceType(service) !== 'ExternalName';
}

/** NodePort services, and LoadBalancers unless allocateLoadBalancerNodePorts is false. */
export function needsNodePorts(service: KubeObject): boolean {
  const type = serviceType(service);
  return type === 'NodePort' || (type === 'LoadBalancer' && specOf(service)['allocateLoadBalancerNodePorts'] !== false);
}

/** Whether node ports may be held at all (requested ones are honoured even when none are allocated). */
export function mayHoldNodePorts(service: KubeObject): boolean {
  const type = serviceType(service);
  return type === 'NodePort' || type === 'LoadBalancer';
}

/** LoadBalancers keeping traffic node-local need a port for the balancer's health checks. */
export function needsHealthCheckNodePort(service: KubeObject): boolean {
  return serviceType(service) === 'LoadBalancer' && specOf(service)['externalTrafficPolicy'] === 'Local';
}

/** LoadBalancer, NodePort, or ClusterIP with external IPs (upstream's ExternallyAccessible). */
export function externallyAccessible(service: KubeObject): boolean {
  const type = serviceType(service);
  const externalIPs = specOf(service)['externalIPs'];
  return type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && Array.isArray(externalIPs) && externalIPs.length > 0);
}

/** The first cluster IP ("" when none), from clusterIPs or the legacy clusterIP field. */
export function primaryClusterIP(service: KubeObject): string {
  const spec = specOf(service);
  return asStringArray(spec['clusterIPs'])[0] ?? stringAt(spec, 'clusterIP') ?? '';
}

/** The node ports a service holds: every port's nodePort and the health-check node port. */
export function heldNodePorts(service: KubeObject): number[] {
  const spec = specOf(service);
  const ports = recordsAt(spec, 'ports').map((p) => p['nodePort']).filter((n): n is number => typeof n === 'number' && n > 0);
  const health = spec['healthCheckNodePort'];
  if (typeof health === 'number' && health > 0) ports.push(health);
  return [...new Set(ports)];
}

export function hasSelector(service: KubeObject): boolean {
  const selector = specOf(service)['selector'];
  return isRecord(selector) && Object.keys(selector).length > 0;
}
