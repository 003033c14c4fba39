/**
 * Where upstream's NodeConnectionInfoGetter would reach a node's kubelet: the first of the node's
 * addresses in kube-apiserver's default --kubelet-preferred-address-types order (a Hostname may
 * also come from the kubernetes.io/hostname label), at the port the kubelet reported, else 10250.
 */
import { ApiError } from '../../api/errors.js';
import { metaOf } from '../../registry/object.js';
import type { ResourceStore } from '../../registry/store/resource-store.js';
import { recordAt, recordsAt, stringAt } from '../../registry/strategies/json-access.js';

const PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
const DEFAULT_KUBELET_PORT = 10250;

export interface KubeletAddress {
  readonly host: string;
  readonly port: string;
}

/**
 * The kubelet's address. Throws 404 when the node does not exist, and upstream's NoMatchError (a
 * plain error, so a 500 without a reason) when it has no address of a preferred type.
 */
export async function kubeletAddress(nodes: ResourceStore, nodeName: string): Promise<KubeletAddress> {
  const node = await nodes.get('', nodeName, { kind: 'consistent' });
  const status = recordAt(node, 'status');
  const addresses = recordsAt(status, 'addresses').map((a) => ({ type: stringAt(a, 'type') ?? '', address: stringAt(a, 'address') ?? '' }));
  const host = preferredAddress(addresses, metaOf(node).labels?.['kubernetes.io/hostname'] ?? '');
  if (host === undefined) {
    // Go prints the []NodeAddress as [{Type Address} ...].
    const known = addresses.map((a) => `{${a.type} ${a.address}}`).join(' ');
    throw new ApiError(500, '', `no preferred addresses found; known addresses: [${known}]`);
  }
  const reported = recordAt(recordAt(status, 'daemonEndpoints'), 'kubeletEndpoint')?.['Port'];
  const port = typeof reported === 'number' && reported > 0 ? reported : DEFAULT_KUBELET_PORT;
  return { host, port: String(port) };
}

function preferredAddress(addresses: readonly { type: string; address: string }[], hostnameLabel: string): string | undefined {
  for (const type of PREFERRED_ADDRESS_TYPES) {
    const match = addresses.find((a) => a.type === type);
    if (match) return match.address;
    // Kubelets before 1.5 gave their host name only as this label.
    if (type === 'Hostname' && hostnameLabel !== '') return hostnameLabel;
  }
  return undefined;
}
