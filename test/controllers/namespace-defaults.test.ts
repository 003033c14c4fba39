/**
 * What every active namespace is given: the `default` ServiceAccount (upstream's
 * pkg/controller/serviceaccount/serviceaccounts_controller.go) and the `kube-root-ca.crt` ConfigMap
 * (pkg/controller/certificates/rootcacertpublisher/publisher.go).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stored, withStores, WRITE } from '../registry/store/store-fixture.js';
import { eventually } from '../eventually.js';
import { CA_PEM, createNamespace, defaultsKeys, deleteNamespace, withDefaultsController } from './controller-fixture.js';

test('a new namespace gets the default ServiceAccount and kube-root-ca.crt with the CA as ca.crt', () =>
  withStores(async (f) => {
    await withDefaultsController(f, async () => {
      await createNamespace(f, 'team');
      const keys = defaultsKeys('team');
      await eventually('both defaults exist', async () => !!(await stored(f, keys.serviceAccount)) && !!(await stored(f, keys.rootCa)));
      const account = await stored(f, keys.serviceAccount);
      assert.deepEqual(Object.keys(account ?? {}).sort(), ['apiVersion', 'kind', 'metadata']);
      assert.equal(account?.kind, 'ServiceAccount');
      const rootCa = await stored(f, keys.rootCa);
      assert.deepEqual(rootCa?.['data'], { 'ca.crt': CA_PEM });
      assert.equal(rootCa?.['binaryData'], undefined);
    });
  }));

test('namespaces already there when the controller starts get them too', () =>
  withStores(async (f) => {
    await createNamespace(f, 'team');
    await withDefaultsController(f, async () => {
      const keys = defaultsKeys('team');
      await eventually('both defaults exist', async () => !!(await stored(f, keys.serviceAccount)) && !!(await stored(f, keys.rootCa)));
    });
  }));

test('a default ServiceAccount that is already there is left as it is', () =>
  withStores(async (f) => {
    await createNamespace(f, 'team');
    const own = await f.store('', 'serviceaccounts').create('team', { metadata: { name: 'default', labels: { mine: 'yes' } } }, WRITE);
    const keys = defaultsKeys('team');
    await withDefaultsController(f, async () => {
      // The controller settles the ServiceAccount before it creates the ConfigMap.
      await eventually('kube-root-ca.crt exists', async () => !!(await stored(f, keys.rootCa)));
    });
    assert.deepEqual(await stored(f, keys.serviceAccount), own);
  }));

test('a terminating namespace is given nothing', () =>
  withStores(async (f) => {
    await createNamespace(f, 'gone');
    await deleteNamespace(f, 'gone');
    await createNamespace(f, 'probe');
    await withDefaultsController(f, async () => {
      // Namespaces come in key order, so `gone` has been seen to once `probe` has its defaults.
      await eventually('probe has its defaults', async () => !!(await stored(f, defaultsKeys('probe').rootCa)));
    });
    const keys = defaultsKeys('gone');
    assert.equal(await stored(f, keys.serviceAccount), undefined);
    assert.equal(await stored(f, keys.rootCa), undefined);
  }));

test('serviceAccountExists follows the ServiceAccounts store: true once one is seen, undefined once it is deleted', () =>
  withStores(async (f) => {
    const accounts = f.store('', 'serviceaccounts');
    await withDefaultsController(f, async (controller) => {
      assert.equal(controller.serviceAccountExists('ns1', 'builder'), undefined);
      await accounts.create('ns1', { metadata: { name: 'builder' } }, WRITE);
      await eventually('the account is seen', () => controller.serviceAccountExists('ns1', 'builder') === true);
      assert.equal(controller.serviceAccountExists('ns2', 'builder'), undefined, 'another namespace');
      await accounts.delete('ns1', 'builder', { dryRun: false });
      await eventually('the deletion is seen', () => controller.serviceAccountExists('ns1', 'builder') === undefined);
    });
  }));
