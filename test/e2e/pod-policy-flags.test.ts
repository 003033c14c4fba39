/**
 * The flags that shape every pod, against the real server: --allow-privileged (by default, as
 * upstream's, a privileged container is refused in pods and pod templates alike) and the default
 * toleration seconds that pod admission adds.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.js';

const privileged = { name: 'c', image: 'busybox', securityContext: { privileged: true } };
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [privileged] } });
const daemonSet = (name: string) => ({
  apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { initContainers: [{ ...privileged, name: 'init' }], containers: [privileged] } } },
});

describe('pod policy flags', () => {
  let strict: TestServer;
  let lax: TestServer;
  before(async () => {
    [strict, lax] = await Promise.all([startServer(), startServer(['--allow-privileged=true', '--default-not-ready-toleration-seconds=60', '--default-unreachable-toleration-seconds=0'])]);
  });
  after(async () => Promise.all([strict?.stop(), lax?.stop()]));

  it('refuses privileged containers by default, with upstream\'s message', async () => {
    const refused = await strict.request('/api/v1/namespaces/default/pods', { method: 'POST', body: pod('p') });
    assert.equal(refused.status, 422, refused.body);
    assert.equal(refused.json().message, 'Pod "p" is invalid: spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy');
    const template = await strict.request('/apis/apps/v1/namespaces/default/daemonsets', { method: 'POST', body: daemonSet('ds') });
    assert.equal(template.status, 422, template.body);
    assert.deepEqual(
      template.json().details.causes.map((c: { field: string }) => c.field),
      ['spec.template.spec.initContainers[0].securityContext.privileged', 'spec.template.spec.containers[0].securityContext.privileged'],
    );
    const unprivileged = await strict.request('/api/v1/namespaces/default/pods', {
      method: 'POST',
      body: { ...pod('q'), spec: { containers: [{ ...privileged, securityContext: { privileged: false } }] } },
    });
    assert.equal(unprivileged.status, 201, unprivileged.body);
  });

  it('adds the not-ready and unreachable tolerations with the seconds the flags give', async () => {
    const seconds = async (server: TestServer, name: string) => {
      const created = await server.request('/api/v1/namespaces/default/pods', { method: 'POST', body: { metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } });
      assert.equal(created.status, 201, created.body);
      return created.json().spec.tolerations.map((t: { key: string; tolerationSeconds: number }) => [t.key, t.tolerationSeconds]);
    };
    assert.deepEqual(await seconds(strict, 'defaults'), [['node.kubernetes.io/not-ready', 300], ['node.kubernetes.io/unreachable', 300]]);
    assert.deepEqual(await seconds(lax, 'flagged'), [['node.kubernetes.io/not-ready', 60], ['node.kubernetes.io/unreachable', 0]]);
  });

  it('accepts them when the flag allows', async () => {
    assert.equal((await lax.request('/api/v1/namespaces/default/pods', { method: 'POST', body: pod('p') })).status, 201);
    assert.equal((await lax.request('/apis/apps/v1/namespaces/default/daemonsets', { method: 'POST', body: daemonSet('ds') })).status, 201);
  });
});
