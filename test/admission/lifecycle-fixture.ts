/**
 * The NamespaceLifecycle gate installed on a test registry as src/app/capstan.ts installs it on the
 * server's: it reads namespaces from their store, the cache first and then consistently.
 */
import { isNotFound } from '../../src/api/errors.js';
import { NamespaceLifecycle } from '../../src/admission/namespace-lifecycle.js';
import type { KubeObject } from '../../src/registry/object.js';
import type { StoreFixture } from '../registry/store/store-fixture.js';

export function installNamespaceLifecycle(f: StoreFixture): void {
  const namespaces = f.store('', 'namespaces');
  f.registry.setNamespaceGate(
    new NamespaceLifecycle(async (name, consistent): Promise<KubeObject | undefined> => {
      try {
        return await namespaces.get('', name, consistent ? { kind: 'consistent' } : { kind: 'any' });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    }),
  );
}
