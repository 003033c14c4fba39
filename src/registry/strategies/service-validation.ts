/**
 * The Service checks kubectl users meet most (upstream's ValidateService and
 * ValidateServiceUpdate, in part): types, ports, cluster IPs, traffic policies, and what a
 * single-stack IPv4 cluster can serve.
 */
import type { FieldError } from '../../api/errors.js';
import { parseIpv4 } from '../allocators/ipv4-range.js';
import type { KubeObject } from '../object.js';
import { fieldDuplicate, fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired } from '../../validation/field-errors.js';
import { asStringArray, recordsAt, stringAt } from './json-access.js';
import { CLUSTER_IP_NONE, externallyAccessible, needsClusterIP, primaryClusterIP, serviceType, specOf } from './service-fields.js';

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const AFFINITIES = ['ClientIP', 'None'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const IP_MESSAGE = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** Field errors of a (defaulted) Service. */
export function validateService(service: KubeObject): FieldError[] {
  const spec = specOf(service);
  const type = serviceType(service);
  const errors: FieldError[] = [];
  if (!TYPES.includes(type)) errors.push(fieldNotSupported('spec.type', type, TYPES));
  if (type === 'ExternalName' && !stringAt(spec, 'externalName')) errors.push(fieldRequired('spec.externalName'));
  errors.push(...validatePorts(service));
  errors.push(...validateClusterIPs(service));
  const affinity = spec['sessionAffinity'];
  if (typeof affinity === 'string' && !AFFINITIES.includes(affinity)) errors.push(fieldNotSupported('spec.sessionAffinity', affinity, AFFINITIES));
  const external = spec['externalTrafficPolicy'];
  if (external !== undefined && !externallyAccessible(service)) {
    errors.push(fieldInvalid('spec.externalTrafficPolicy', external, 'may only be set for externally-accessible services'));
  } else if (typeof external === 'string' && !TRAFFIC_POLICIES.includes(external)) {
    errors.push(fieldNotSupported('spec.externalTrafficPolicy', external, TRAFFIC_POLICIES));
  }
  const internal = spec['internalTrafficPolicy'];
  if (typeof internal === 'string' && !TRAFFIC_POLICIES.includes(internal)) errors.push(fieldNotSupported('spec.internalTrafficPolicy', internal, TRAFFIC_POLICIES));
  errors.push(...validateFamilies(service));
  return errors;
}

function validatePorts(service: KubeObject): FieldError[] {
  const spec = specOf(service);
  const type = serviceType(service);
  const ports = recordsAt(spec, 'ports');
  const errors: FieldError[] = [];
  const headless = primaryClusterIP(service) === CLUSTER_IP_NONE;
  if (ports.length === 0 && type !== 'ExternalName' && !headless) errors.push(fieldRequired('spec.ports'));
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const path = `spec.ports[${i}]`;
    const name = stringAt(port, 'name') ?? '';
    if (ports.length > 1 && name === '') errors.push(fieldRequired(`${path}.name`));
    if (name !== '') {
      if (names.has(name)) errors.push(fieldDuplicate(`${path}.name`, name));
      names.add(name);
    }
    const number = port['port'];
    if (typeof number !== 'number' || number < 1 || number > 65535) errors.push(fieldInvalid(`${path}.port`, number ?? 0, 'must be between 1 and 65535, inclusive'));
    const protocol = port['protocol'];
    if (typeof protocol === 'string' && !PROTOCOLS.includes(protocol)) errors.push(fieldNotSupported(`${path}.protocol`, protocol, PROTOCOLS));
    const nodePort = port['nodePort'];
    if (typeof nodePort === 'number' && nodePort !== 0 && (type === 'ClusterIP' || type === 'ExternalName')) {
      errors.push(fieldForbidden(`${path}.nodePort`, `may not be used when \`type\` is '${type}'`));
    }
  });
  return errors;
}

function validateClusterIPs(service: KubeObject): FieldError[] {
  const spec = specOf(service);
  const type = serviceType(service);
  const ips = asStringArray(spec['clusterIPs']);
  const errors: FieldError[] = [];
  if (!needsClusterIP(service)) {
    if (ips.length > 0 || stringAt(spec, 'clusterIP')) errors.push(fieldForbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    return errors;
  }
  const legacy = stringAt(spec, 'clusterIP');
  if (legacy !== undefined && ips.length > 0 && legacy !== ips[0]) {
    errors.push(fieldInvalid('spec.clusterIPs', ips, 'first value must match `clusterIP`'));
  }
  ips.forEach((ip, i) => {
    const path = `spec.clusterIPs[${i}]`;
    if (ip === CLUSTER_IP_NONE) {
      if (i > 0) errors.push(fieldInvalid(path, ip, "may not be set to 'None' unless it is the first value"));
      else if (type === 'NodePort' || type === 'LoadBalancer') errors.push(fieldInvalid(path, ip, `may not be set to 'None' for ${type} services`));
    } else if (ip !== '' && parseIpv4(ip) === undefined) {
      errors.push(fieldInvalid(path, ip, IP_MESSAGE));
    }
  });
  return errors;
}

/** A single-stack IPv4 cluster serves neither IPv6 nor required dual-stack (selectorless headless excepted). */
function validateFamilies(service: KubeObject): FieldError[] {
  if (!needsClusterIP(service)) return [];
  const spec = specOf(service);
  const errors: FieldError[] = [];
  const policy = spec['ipFamilyPolicy'];
  const headless = primaryClusterIP(service) === CLUSTER_IP_NONE;
  if (headless && Object.keys((spec['selector'] as object | undefined) ?? {}).length === 0) return errors;
  if (policy === 'RequireDualStack') errors.push(fieldInvalid('spec.ipFamilyPolicy', policy, 'this cluster is not configured for dual-stack services'));
  asStringArray(spec['ipFamilies']).forEach((family, i) => {
    if (family !== 'IPv4') errors.push(fieldInvalid(`spec.ipFamilies[${i}]`, family, 'not configured on this cluster'));
  });
  return errors;
}

/** What an update may not change: the cluster IP once set (except to or from ExternalName). */
export function validateServiceUpdate(service: KubeObject, old: KubeObject): FieldError[] {
  if (!needsClusterIP(service) || !needsClusterIP(old)) return [];
  const before = primaryClusterIP(old);
  const after = primaryClusterIP(service);
  if (before === '' || before === after) return [];
  const ips = asStringArray(specOf(service)['clusterIPs']);
  return [fieldInvalid('spec.clusterIPs[0]', ips, 'may not change once set')];
}
