/**
 * Drives the real server with @kubernetes/client-node: an informer (list, then watch with
 * bookmarks) that must see every change a concurrent writer makes, paging across 1,000 objects, and
 * server-side apply.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startServer, type TestServer } from './harness.js';

/** The objects the test wrote (every namespace also holds the server's kube-root-ca.crt). */
function written<T extends k8s.KubernetesObject>(objects: readonly T[]): T[] {
  return objects.filter((o) => o.metadata?.name !== 'kube-root-ca.crt');
}

describe('@kubernetes/client-node against capstan', () => {
  let server: TestServer;
  let core: k8s.CoreV1Api;
  let config: k8s.KubeConfig;

  before(async () => {
    server = await startServer();
    config = new k8s.KubeConfig();
    config.loadFromFile(server.kubeconfig);
    core = config.makeApiClient(k8s.CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'informed' } } });
    await core.createNamespace({ body: { metadata: { name: 'paging' } } });
  });
  after(async () => server?.stop());

  it('keeps an informer in step with a concurrent writer', async () => {
    const informer = k8s.makeInformer(config, '/api/v1/namespaces/informed/configmaps', () =>
      core.listNamespacedConfigMap({ namespace: 'informed' }),
    );
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata!.name}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata!.name} ${o.data?.['v']}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata!.name}`));
    await informer.start();
    try {
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 40; i++) {
        writes.push((async () => {
          const name = `cm${i}`;
          await core.createNamespacedConfigMap({ namespace: 'informed', body: { metadata: { name }, data: { v: '0' } } });
          await core.patchNamespacedConfigMap(
            { namespace: 'informed', name, body: { data: { v: '1' } } },
            k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
          );
          if (i % 2 === 0) await core.deleteNamespacedConfigMap({ namespace: 'informed', name });
        })());
      }
      await Promise.all(writes);
      const expected = new Set(Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 2 === 1).map((i) => `cm${i}`));
      for (let i = 0; i < 200; i++) {
        const names = new Set(written(informer.list('informed')).map((o) => o.metadata!.name!));
        if (names.size === expected.size && [...expected].every((n) => names.has(n))) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const cached = written(informer.list('informed'));
      assert.deepEqual(new Set(cached.map((o) => o.metadata!.name)), expected);
      for (const o of cached) assert.equal(o.data?.['v'], '1');
      for (let i = 0; i < 40; i++) {
        assert.ok(seen.includes(`add cm${i}`), `add of cm${i} seen`);
        if (i % 2 === 0) assert.ok(seen.includes(`delete cm${i}`), `delete of cm${i} seen`);
      }
    } finally {
      await informer.stop();
    }
  });

  it('pages through 1,000 objects at one resourceVersion', async () => {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < 1000) {
        const i = next++;
        await core.createNamespacedSecret({ namespace: 'paging', body: { metadata: { name: `item-${String(i).padStart(4, '0')}` } } });
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const names: string[] = [];
    let token: string | undefined;
    let listVersion: string | undefined;
    let pages = 0;
    do {
      const page: k8s.V1SecretList = await core.listNamespacedSecret({ namespace: 'paging', limit: 100, ...(token ? { _continue: token } : {}) });
      pages++;
      listVersion ??= page.metadata!.resourceVersion;
      assert.equal(page.metadata!.resourceVersion, listVersion, 'every page is served at the first page\'s revision');
      names.push(...page.items.map((o) => o.metadata!.name!));
      token = page.metadata!._continue || undefined;
      if (token) assert.equal(page.metadata!.remainingItemCount, 1000 - names.length);
      // A write between pages does not show up in the paged list.
      if (pages === 2) await core.createNamespacedSecret({ namespace: 'paging', body: { metadata: { name: 'item-late' } } });
    } while (token);
    assert.equal(pages, 10);
    assert.equal(names.length, 1000);
    assert.equal(new Set(names).size, 1000);
    assert.deepEqual(names, [...names].sort());
  });

  it('applies server-side, with field managers and forced conflicts', async () => {
    const apps = config.makeApiClient(k8s.AppsV1Api);
    const deployment = (replicas: number): k8s.V1Deployment => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'applied', namespace: 'informed' },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'applied' } },
        template: { metadata: { labels: { app: 'applied' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    });
    const apply = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
    const created = await apps.patchNamespacedDeployment({ namespace: 'informed', name: 'applied', body: deployment(1), fieldManager: 'ci' }, apply);
    assert.equal(created.spec?.replicas, 1);
    assert.deepEqual(created.metadata?.managedFields?.map((e) => [e.manager, e.operation]), [['ci', 'Apply']]);
    await assert.rejects(
      apps.patchNamespacedDeployment({ namespace: 'informed', name: 'applied', body: deployment(3), fieldManager: 'autoscaler' }, apply),
      (err: { code?: number; body?: unknown }) => err.code === 409 && /conflict with \\?"ci\\?": \.spec\.replicas/.test(typeof err.body === 'string' ? err.body : JSON.stringify(err.body)),
    );
    const forced = await apps.patchNamespacedDeployment({ namespace: 'informed', name: 'applied', body: deployment(3), fieldManager: 'autoscaler', force: true }, apply);
    assert.equal(forced.spec?.replicas, 3);
    assert.deepEqual(forced.metadata?.managedFields?.map((e) => e.manager).sort(), ['autoscaler', 'ci']);
  });
});

