/**
 * Builds the Service allocators from the server options: cluster IPs from the first (IPv4) range
 * of --service-cluster-ip-range and node ports from --service-node-port-range, both kept as
 * marker keys under `{storePrefix}/capstan/`.
 */
import type { Storage } from '../../storage/storage.js';
import type { Allocator } from './allocator.js';
import { Ipv4Range } from './ipv4-range.js';
import { PortRange } from './port-range.js';
import { StorageAllocator } from './storage-allocator.js';

export interface ServiceAllocatorOptions {
  readonly storage: Storage;
  /** --store-prefix, e.g. "/registry". */
  readonly storePrefix: string;
  /** --service-cluster-ip-range values; only the first is used (IPv4, single-stack). */
  readonly clusterIpRanges: readonly string[];
  readonly nodePortRange: { readonly min: number; readonly max: number };
}

export interface BuiltServiceAllocators {
  /** Absent when no cluster IP range is configured. */
  readonly clusterIps?: Allocator<string>;
  readonly nodePorts: Allocator<number>;
}

/** @throws Error for a range that cannot be parsed (the options layer should have caught it). */
export function createServiceAllocators(options: ServiceAllocatorOptions): BuiltServiceAllocators {
  const base = `${options.storePrefix.replace(/\/+$/, '')}/capstan`;
  const nodePorts = new StorageAllocator({
    storage: options.storage,
    prefix: `${base}/servicenodeports/`,
    range: new PortRange(options.nodePortRange.min, options.nodePortRange.max),
    noun: 'nodePort',
  });
  const cidr = options.clusterIpRanges[0];
  if (cidr === undefined) return { nodePorts };
  const clusterIps = new StorageAllocator({ storage: options.storage, prefix: `${base}/serviceips/`, range: new Ipv4Range(cidr), noun: 'serviceIP' });
  return { clusterIps, nodePorts };
}
