/**
 * What the controller tests share. The controllers run on watches and their own retry timers, so a
 * test waits for what it expects to become true with `eventually` (test/eventually.ts).
 */
import { ApiError } from '../../src/api/errors.js';
import { NamespaceController } from '../../src/controllers/namespace-controller.js';
import { NamespaceDefaultsController } from '../../src/controllers/namespace-defaults-controller.js';
import type { KubeObject } from '../../src/registry/object.js';
import type { ListPage } from '../../src/registry/store/read.js';
import { ResourceStore } from '../../src/registry/store/resource-store.js';
import { stored, WRITE, type StoreFixture } from '../registry/store/store-fixture.js';

export async function createNamespace(f: StoreFixture, name: string, spec?: { finalizers: string[] }): Promise<KubeObject> {
  return f.store('', 'namespaces').create('', { metadata: { name }, ...(spec ? { spec } : {}) }, WRITE);
}

/** Deletes the namespace: it turns Terminating and stays while its spec.finalizers hold it. */
export async function deleteNamespace(f: StoreFixture, name: string): Promise<void> {
  await f.store('', 'namespaces').delete('', name, { dryRun: false });
}

/** The namespace as stored now, or undefined once it is gone. */
export function storedNamespace(f: StoreFixture, name: string): Promise<KubeObject | undefined> {
  return stored(f, `/registry/namespaces/${name}`);
}

/** The namespaced types of the store fixture, in the order the namespace controller is given them. */
export function namespacedStores(f: StoreFixture): ResourceStore[] {
  return [
    f.store('', 'configmaps'),
    f.store('', 'pods'),
    f.store('', 'serviceaccounts'),
    f.store('apps', 'deployments'),
    f.store('coordination.k8s.io', 'leases'),
  ];
}

export interface NamespaceControllerRun {
  /** What the controller logged. */
  readonly logs: readonly string[];
  /**
   * How many cleaning passes have begun: the controller asks for the namespaced stores once per
   * pass, as upstream's deleter runs discovery once per pass. Pass n has ended when n + 1 begins.
   */
  passes(): number;
}

/**
 * Runs a NamespaceController over `stores` (default: namespacedStores) for the body, retrying
 * namespaces that still hold content every 5 ms, and closes it afterwards.
 */
export async function withNamespaceController(
  f: StoreFixture,
  body: (run: NamespaceControllerRun) => Promise<void>,
  stores: readonly ResourceStore[] = namespacedStores(f),
): Promise<void> {
  const logs: string[] = [];
  let passes = 0;
  const controller = new NamespaceController({
    namespaces: f.store('', 'namespaces'),
    namespacedStores: () => {
      passes++;
      return stores;
    },
    log: (m) => logs.push(m),
    retryMs: 5,
  });
  controller.start();
  try {
    await body({ logs, passes: () => passes });
  } finally {
    await controller.close();
  }
}

/** A real store whose list always fails, as a type the controller cannot read. */
export class UnlistableStore extends ResourceStore {
  constructor(of: ResourceStore, private readonly why: string) {
    super(of.context);
  }

  override list(): Promise<ListPage> {
    return Promise.reject(new ApiError(503, 'ServiceUnavailable', this.why));
  }
}

/** The CA bundle the defaults controller publishes in these tests. */
export const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n';

/** Where namespace `namespace`'s default ServiceAccount and root CA ConfigMap are stored. */
export function defaultsKeys(namespace: string): { serviceAccount: string; rootCa: string } {
  return { serviceAccount: `/registry/serviceaccounts/${namespace}/default`, rootCa: `/registry/configmaps/${namespace}/kube-root-ca.crt` };
}

/**
 * Runs a NamespaceDefaultsController for the body and closes it afterwards. Its log is not kept:
 * the tests judge it by what it stores.
 */
export async function withDefaultsController(f: StoreFixture, body: (controller: NamespaceDefaultsController) => Promise<void>): Promise<void> {
  const controller = new NamespaceDefaultsController({
    namespaces: f.store('', 'namespaces'),
    serviceAccounts: f.store('', 'serviceaccounts'),
    configMaps: f.store('', 'configmaps'),
    caPem: CA_PEM,
    log: () => undefined,
  });
  controller.start();
  try {
    await body(controller);
  } finally {
    await controller.close();
  }
}
