/**
 * The namespaces that exist on every cluster from the first start. Created when absent; several
 * replicas starting together may race, and the loser's AlreadyExists is expected.
 */
import { createIfAbsent } from '../registry/store/create-if-absent.js';
import type { ResourceStore } from '../registry/store/resource-store.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

export async function ensureSystemNamespaces(namespaces: ResourceStore): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) await createIfAbsent(namespaces, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}
