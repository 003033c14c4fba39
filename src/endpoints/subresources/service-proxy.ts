/**
 * Where upstream's service ResourceLocation sends services/proxy: a port given by number is first
 * mapped to the service's port name; then the service's Endpoints must have a subset with an
 * address and a port of that name, and the address must be a pod of the namespace with that IP.
 * Without one the answer is 503 "no endpoints available".
 */
import { serviceUnavailable } from '../../api/errors.js';
import type { KubeObject } from '../../registry/object.js';
import type { ResourceStore } from '../../registry/store/resource-store.js';
import { recordAt, recordsAt, stringAt, type JsonRecord } from '../../registry/strategies/json-access.js';
import { goQuote } from '../../serialization/go-format.js';
import type { RequestScope } from '../scope.js';
import type { SchemeNamePort } from './proxy-target.js';
import { joinHostPort } from './unreachable.js';

const INT64 = /^[+-]?[0-9]+$/;

/** The `ip:port` of a ready endpoint; throws 404 (service or endpoints absent) or 503. */
export async function serviceEndpointAddress(scope: RequestScope, id: SchemeNamePort, endpoints: ResourceStore, pods: ResourceStore): Promise<string> {
  const portName = INT64.test(id.port) ? await portNameOf(scope, id) : id.port;
  const eps = await endpoints.get(scope.namespace, id.name, { kind: 'consistent' });
  const subsets = recordsAt(eps, 'subsets');
  if (subsets.length === 0) throw serviceUnavailable(`no endpoints available for service ${goQuote(id.name)}`);
  // Upstream starts from a random subset and address; every candidate is tried either way.
  for (const subset of subsets) {
    const addresses = recordsAt(subset, 'addresses');
    for (const port of recordsAt(subset, 'ports').filter((p) => (stringAt(p, 'name') ?? '') === portName)) {
      for (const address of addresses) {
        const ip = stringAt(address, 'ip') ?? '';
        if (await isPodAddress(scope.namespace, address, ip, pods)) return joinHostPort(ip, String(port['port'] ?? 0));
      }
    }
  }
  throw serviceUnavailable(`no endpoints available for service ${goQuote(scope.name)}`);
}

async function portNameOf(scope: RequestScope, id: SchemeNamePort): Promise<string> {
  const service = await scope.store.get(scope.namespace, id.name, { kind: 'consistent' });
  const number = BigInt(id.port);
  const port = recordsAt(recordAt(service, 'spec'), 'ports').find((p) => typeof p['port'] === 'number' && BigInt(p['port']) === number);
  if (!port) throw serviceUnavailable(`no service port ${number} found for service ${goQuote(id.name)}`);
  return stringAt(port, 'name') ?? '';
}

/** upstream's isValidAddress: the address names a pod of this namespace that has this IP. */
async function isPodAddress(namespace: string, address: JsonRecord, ip: string, pods: ResourceStore): Promise<boolean> {
  const ref = recordAt(address, 'targetRef');
  if (!ref || stringAt(ref, 'namespace') !== namespace) return false;
  let pod: KubeObject;
  try {
    pod = await pods.get(namespace, stringAt(ref, 'name') ?? '', { kind: 'consistent' });
  } catch {
    // Upstream skips an address whose pod it cannot read, whatever the reason.
    return false;
  }
  return recordsAt(recordAt(pod, 'status'), 'podIPs').some((p) => p['ip'] === ip);
}
