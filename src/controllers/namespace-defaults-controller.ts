/**
 * What every active namespace holds from its start, as upstream's controllers make and keep it:
 * the `default` ServiceAccount and the `kube-root-ca.crt` ConfigMap with the cluster CA that
 * clients inside the cluster trust. Either one deleted is made again, and a `kube-root-ca.crt`
 * whose data was changed gets the CA back (upstream's serviceaccounts controller and root CA
 * publisher). Also keeps the set of existing service accounts that Pod admission asks about (the
 * token volume is only added for an account that exists).
 */
import { ApiError } from '../api/errors.js';
import { jsonEqual, metaOf, type KubeObject } from '../registry/object.js';
import { createIfAbsent } from '../registry/store/create-if-absent.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import { ObjectWatcher } from './object-watcher.js';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const DEFAULT_SERVICE_ACCOUNT = 'default';

export interface NamespaceDefaultsDeps {
  readonly namespaces: ResourceStore;
  readonly serviceAccounts: ResourceStore;
  readonly configMaps: ResourceStore;
  /** The PEM bundle published as `ca.crt`. */
  readonly caPem: string;
  readonly log: (message: string) => void;
}

export class NamespaceDefaultsController {
  private readonly accounts = new Set<string>();
  private readonly watchers: ObjectWatcher[];

  constructor(private readonly deps: NamespaceDefaultsDeps) {
    const log = (m: string): void => deps.log(`namespace defaults: ${m}`);
    this.watchers = [
      new ObjectWatcher(deps.namespaces, (event) => {
        if (event.type !== 'DELETED') void this.ensureDefaults(event.entry.object);
      }, log),
      new ObjectWatcher(deps.serviceAccounts, (event) => {
        const meta = metaOf(event.entry.object);
        const key = `${meta.namespace}/${meta.name}`;
        if (event.type !== 'DELETED') {
          this.accounts.add(key);
          return;
        }
        this.accounts.delete(key);
        if (meta.name === DEFAULT_SERVICE_ACCOUNT) void this.ensureDefaultsIn(meta.namespace!);
      }, log),
      new ObjectWatcher(deps.configMaps, (event) => {
        const object = event.entry.object;
        const namespace = metaOf(object).namespace!;
        if (event.type === 'DELETED') void this.ensureDefaultsIn(namespace);
        else if (!jsonEqual(object['data'], this.rootCaData())) void this.restoreRootCa(namespace);
      }, log, (object) => metaOf(object).name === ROOT_CA_CONFIGMAP),
    ];
  }

  start(): void {
    for (const w of this.watchers) w.start();
  }

  async close(): Promise<void> {
    await Promise.all(this.watchers.map((w) => w.close()));
  }

  /** True when the account exists; undefined when this server has not seen it (yet). */
  serviceAccountExists(namespace: string, name: string): true | undefined {
    return this.accounts.has(`${namespace}/${name}`) ? true : undefined;
  }

  /** Makes what is missing in `namespace`, if it exists and is not going away. */
  private async ensureDefaultsIn(namespace: string): Promise<void> {
    try {
      await this.ensureDefaults(await this.deps.namespaces.get('', namespace, { kind: 'consistent' }));
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) this.deps.log(`namespace defaults: reading namespace ${namespace}: ${(err as Error).message}`);
    }
  }

  /** Puts the CA back into a `kube-root-ca.crt` whose data someone changed (the data is replaced whole, as upstream's). */
  private async restoreRootCa(namespace: string): Promise<void> {
    try {
      await this.deps.configMaps.update(namespace, ROOT_CA_CONFIGMAP, (current) => ({ ...current, data: this.rootCaData() }), { dryRun: false, subresource: '' });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) this.deps.log(`namespace defaults: restoring ${namespace}/${ROOT_CA_CONFIGMAP}: ${(err as Error).message}`);
    }
  }

  private rootCaData(): Record<string, string> {
    return { 'ca.crt': this.deps.caPem };
  }

  private async ensureDefaults(namespace: KubeObject): Promise<void> {
    const meta = metaOf(namespace);
    if (meta.deletionTimestamp || !meta.name) return;
    const name = meta.name;
    await this.createIfAbsent(this.deps.serviceAccounts, name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT } });
    await this.createIfAbsent(this.deps.configMaps, name, {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: ROOT_CA_CONFIGMAP },
      data: this.rootCaData(),
    });
  }

  private async createIfAbsent(store: ResourceStore, namespace: string, object: KubeObject): Promise<void> {
    try {
      await createIfAbsent(store, namespace, object, { kind: 'any' });
    } catch (err) {
      // The namespace going away (403) or gone (404) is fine: it needs no defaults any more.
      if (!(err instanceof ApiError && (err.code === 403 || err.code === 404))) {
        this.deps.log(`namespace defaults: creating ${namespace}/${metaOf(object).name}: ${(err as Error).message}`);
      }
    }
  }
}
