/**
 * Upstream keeps each namespace's defaults as they should be, not only creates them:
 * - pkg/controller/certificates/rootcacertpublisher/publisher.go creates kube-root-ca.crt with the
 *   kubernetes.io/description annotation, and on a ConfigMap delete or update of that name syncs
 *   the namespace again: creates it anew, or rewrites its data and annotation when they differ.
 * - pkg/controller/serviceaccount/serviceaccounts_controller.go, on a ServiceAccount delete,
 *   syncs the namespace again and creates `default` anew (while the namespace is Active).
 * The description annotation upstream's publisher also writes is upstream's prose, which this
 * project does not copy; it is left out.
 */
import { describe, it } from 'node:test';
import { stored, withStores, WRITE, type StoreFixture } from '../registry/store/store-fixture.js';
import { eventually } from '../eventually.js';
import { CA_PEM, createNamespace, defaultsKeys, withDefaultsController } from './controller-fixture.js';

const keys = defaultsKeys('team');

/** Runs the controller over namespace team once both its defaults exist. */
function withTeamDefaults(body: (f: StoreFixture) => Promise<void>): Promise<void> {
  return withStores((f) =>
    withDefaultsController(f, async () => {
      await createNamespace(f, 'team');
      await eventually('both defaults exist', async () => !!(await stored(f, keys.serviceAccount)) && !!(await stored(f, keys.rootCa)));
      await body(f);
    }),
  );
}

describe('what is deleted or changed is put back', { concurrency: true }, () => {
  it('a deleted kube-root-ca.crt is created again', () =>
    withTeamDefaults(async (f) => {
      await f.store('', 'configmaps').delete('team', 'kube-root-ca.crt', { dryRun: false });
      await eventually('kube-root-ca.crt is back', async () => !!(await stored(f, keys.rootCa)));
    }));

  it('an edited kube-root-ca.crt gets its ca.crt back', () =>
    withTeamDefaults(async (f) => {
      await f.store('', 'configmaps').update('team', 'kube-root-ca.crt', (current) => ({ ...current, data: { 'ca.crt': 'stale' } }), WRITE);
      await eventually('ca.crt is the CA again', async () => {
        const data = (await stored(f, keys.rootCa))?.['data'] as Record<string, string> | undefined;
        return data?.['ca.crt'] === CA_PEM;
      });
    }));

  it('a deleted default ServiceAccount is created again', () =>
    withTeamDefaults(async (f) => {
      await f.store('', 'serviceaccounts').delete('team', 'default', { dryRun: false });
      await eventually('the default ServiceAccount is back', async () => !!(await stored(f, keys.serviceAccount)));
    }));
});
