/**
 * The namespaces that exist on every cluster from the first start. Created when absent; several
 * replicas starting together may race, and the loser's AlreadyExists is expected.
 */
import { ApiError } from '../api/errors.js';
import type { ResourceStore } from '../registry/store/resource-store.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

export async function ensureSystemNamespaces(namespaces: ResourceStore): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    try {
      await namespaces.get('', name, { kind: 'consistent' });
      continue;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
    try {
      await namespaces.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { dryRun: false, subresource: '' });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
  }
}
