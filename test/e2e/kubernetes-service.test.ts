/**
 * The `kubernetes` Service in `default`, with its Endpoints and EndpointSlice, against the real
 * server: the first address of the service range, and the address and port the server serves at,
 * rewritten when the server comes back on another port.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from './harness.js';

const DEFAULT = '/api/v1/namespaces/default';

/** The object once it exists (it is made beside startup, not before readiness). */
async function eventually(server: TestServer, path: string, ready: (o: any) => boolean = () => true): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const res = await server.request(path);
    if (res.status === 200 && ready(res.json())) return res.json();
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`${path} did not appear`);
}

describe('the kubernetes service', () => {
  let server: TestServer;
  // Given by the test, so that a stopped server's data stays for its restart.
  const dataDir = mkdtempSync(join(tmpdir(), 'capstan-e2e-'));
  before(async () => {
    server = await startServer(['--service-cluster-ip-range=10.96.0.0/24'], dataDir);
  });
  after(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes the first address of the service range and points at the server', async () => {
    const service = await eventually(server, `${DEFAULT}/services/kubernetes`);
    assert.equal(service.spec.clusterIP, '10.96.0.1');
    assert.deepEqual(service.spec.ports, [{ name: 'https', protocol: 'TCP', port: 443, targetPort: server.port }]);
    assert.deepEqual(service.metadata.labels, { component: 'apiserver', provider: 'kubernetes' });
    const endpoints = await eventually(server, `${DEFAULT}/endpoints/kubernetes`);
    assert.deepEqual(endpoints.subsets, [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: server.port, protocol: 'TCP' }] }]);
    const slice = await eventually(server, '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes');
    assert.deepEqual(slice.endpoints.map((e: { addresses: string[] }) => e.addresses), [['127.0.0.1']]);
    assert.equal(slice.metadata.labels['kubernetes.io/service-name'], 'kubernetes');
  });

  it('names the --advertise-address in its endpoints', async () => {
    const advertised = await startServer(['--advertise-address=10.1.2.3']);
    try {
      const endpoints = await eventually(advertised, `${DEFAULT}/endpoints/kubernetes`);
      assert.deepEqual(endpoints.subsets[0].addresses, [{ ip: '10.1.2.3' }]);
    } finally {
      await advertised.stop();
    }
  });

  it('holds its address: another Service cannot take it', async () => {
    await eventually(server, `${DEFAULT}/services/kubernetes`);
    const taken = await server.request(`${DEFAULT}/services`, { method: 'POST', body: { metadata: { name: 'squatter' }, spec: { clusterIP: '10.96.0.1', ports: [{ port: 80 }] } } });
    assert.equal(taken.status, 422, taken.body);
    assert.match(taken.json().message, /provided IP is already allocated/);
  });

  it('is pointed at the new port when the server comes back on another one', async () => {
    const before = await eventually(server, `${DEFAULT}/endpoints/kubernetes`);
    await server.stop();
    server = await startServer(['--service-cluster-ip-range=10.96.0.0/24'], dataDir);
    const port = server.port;
    const endpoints = await eventually(server, `${DEFAULT}/endpoints/kubernetes`, (e) => e.subsets?.[0]?.ports?.[0]?.port === port);
    assert.equal(endpoints.metadata.uid, before.metadata.uid, 'the same Endpoints, rewritten');
  });
});
