import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goldenObject } from '../metadata-only/golden-http.js';
import { ago, cellsByColumn } from './table-fixtures.js';

function service(spec: Record<string, unknown>, status: Record<string, unknown> = {}): Record<string, unknown> {
  return { metadata: { name: 's', creationTimestamp: ago(45) }, spec, status };
}

const serviceCells = (object: Record<string, unknown>) => cellsByColumn('', 'v1', 'services', object);

test('NodePort service (the captured s1)', () => {
  const cells = serviceCells(goldenObject('object-service-s1.json'));
  assert.deepEqual({ ...cells, Age: undefined }, {
    Name: 's1', Type: 'NodePort', 'Cluster-IP': '10.0.0.139', 'External-IP': '<none>', 'Port(s)': '80:31745/TCP', Age: undefined, Selector: 'app=web',
  });
});

test('ClusterIP service with several ports and external IPs', () => {
  const cells = serviceCells(service({
    type: 'ClusterIP',
    clusterIPs: ['10.0.0.1', 'fd00::1'],
    externalIPs: ['1.2.3.4', '5.6.7.8'],
    ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }],
    selector: { tier: 'web', app: 'shop' },
  }));
  assert.deepEqual(cells, {
    Name: 's', Type: 'ClusterIP', 'Cluster-IP': '10.0.0.1', 'External-IP': '1.2.3.4,5.6.7.8', 'Port(s)': '80/TCP,53/UDP', Age: '45s', Selector: 'app=shop,tier=web',
  });
});

test('LoadBalancer: <pending> until assigned, then sorted unique ingress points, external IPs after', () => {
  assert.equal(serviceCells(service({ type: 'LoadBalancer' }))['External-IP'], '<pending>');
  const assigned = service({ type: 'LoadBalancer' }, { loadBalancer: { ingress: [{ ip: '9.9.9.9' }, { hostname: 'lb.example.com' }, { ip: '9.9.9.9' }] } });
  assert.equal(serviceCells(assigned)['External-IP'], '9.9.9.9,lb.example.com');
  const both = service({ type: 'LoadBalancer', externalIPs: ['1.1.1.1'] }, { loadBalancer: { ingress: [{ ip: '2.2.2.2' }] } });
  assert.equal(serviceCells(both)['External-IP'], '2.2.2.2,1.1.1.1');
});

test('ExternalName, headless and port-less services', () => {
  const external = serviceCells(service({ type: 'ExternalName', externalName: 'db.example.com' }));
  assert.equal(external['External-IP'], 'db.example.com');
  assert.equal(external['Cluster-IP'], '<none>');
  assert.equal(external['Port(s)'], '<none>');
  assert.equal(external.Selector, '<none>');
  assert.equal(serviceCells(service({ type: 'ClusterIP', clusterIPs: ['None'] }))['Cluster-IP'], 'None');
  assert.equal(serviceCells(service({}))['External-IP'], '<unknown>');
});

test('endpoints: up to three ip:port entries, then a count', () => {
  const endpoints = (subsets: unknown[]) => cellsByColumn('', 'v1', 'endpoints', { metadata: { name: 'e' }, subsets }).Endpoints;
  assert.equal(endpoints([]), '<none>');
  assert.equal(endpoints([{ addresses: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], ports: [{ port: 80 }] }]), '10.0.0.1:80,[fd00::1]:80');
  assert.equal(endpoints([{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }, { port: 443 }] }]),
    '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...');
  assert.equal(endpoints([{ addresses: [{ ip: '10.0.0.9' }] }]), '10.0.0.9');
});
