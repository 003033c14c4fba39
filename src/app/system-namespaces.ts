/**
 * The namespaces that exist on every cluster from the first start. Created when absent; several
 * replicas starting together may race, and the loser's AlreadyExists is expected.
 */
import { createIfAbsent } from '../registry/store/create-if-absent.js';
import type { ResourceStore } from '../registry/store/resource-store.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/** Creates the absent ones together, so that a first start commits them in one batch. */
export async function ensureSystemNamespaces(namespaces: ResourceStore): Promise<void> {
  await Promise.all(
    SYSTEM_NAMESPACES.map((name) => createIfAbsent(namespaces, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
  );
}
