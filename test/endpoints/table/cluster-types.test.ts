import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goldenObject } from '../metadata-only/golden-http.js';
import { ago, cellsByColumn } from './table-fixtures.js';

test('namespaces, config maps, secrets, service accounts', () => {
  assert.equal(cellsByColumn('', 'v1', 'namespaces', { metadata: { name: 'n' }, status: { phase: 'Terminating' } }).Status, 'Terminating');
  assert.equal(cellsByColumn('', 'v1', 'configmaps', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }).Data, 3);
  assert.deepEqual(cellsByColumn('', 'v1', 'secrets', { type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } }),
    { Name: '', Type: 'kubernetes.io/tls', Data: 2, Age: '<unknown>' });
  assert.equal(cellsByColumn('', 'v1', 'serviceaccounts', { secrets: [{ name: 't' }] }).Secrets, 1);
});

test('nodes: Ready condition, cordon, roles and node info', () => {
  const cells = cellsByColumn('', 'v1', 'nodes', {
    metadata: {
      name: 'n1',
      creationTimestamp: ago(3 * 86400),
      labels: { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/': '', 'kubernetes.io/role': 'edge' },
    },
    spec: { unschedulable: true },
    status: {
      conditions: [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'True' }],
      addresses: [{ type: 'Hostname', address: 'n1' }, { type: 'InternalIP', address: '192.168.0.10' }],
      nodeInfo: { kubeletVersion: 'v1.32.0', osImage: 'Debian', kernelVersion: '', containerRuntimeVersion: 'containerd://2.0' },
    },
  });
  assert.deepEqual(cells, {
    Name: 'n1', Status: 'Ready,SchedulingDisabled', Roles: 'control-plane,edge', Age: '3d', Version: 'v1.32.0',
    'Internal-IP': '192.168.0.10', 'External-IP': '<none>', 'OS-Image': 'Debian', 'Kernel-Version': '<unknown>',
    'Container-Runtime': 'containerd://2.0',
  });
  const bare = cellsByColumn('', 'v1', 'nodes', { metadata: { name: 'n2' }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } });
  assert.deepEqual([bare.Status, bare.Roles], ['NotReady', '<none>']);
  assert.equal(cellsByColumn('', 'v1', 'nodes', {}).Status, 'Unknown');
});

test('persistent volumes', () => {
  const cells = cellsByColumn('', 'v1', 'persistentvolumes', {
    metadata: { name: 'pv1', annotations: { 'volume.beta.kubernetes.io/storage-class': 'legacy' } },
    spec: {
      capacity: { storage: '10Gi' },
      accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Retain',
      claimRef: { namespace: 'ns', name: 'data' },
      storageClassName: 'fast',
      volumeMode: 'Block',
    },
    status: { phase: 'Bound' },
  });
  assert.deepEqual({ ...cells, Age: undefined }, {
    Name: 'pv1', Capacity: '10Gi', 'Access Modes': 'RWO,RWX', 'Reclaim Policy': 'Retain', Status: 'Bound', Claim: 'ns/data',
    StorageClass: 'legacy', VolumeAttributesClass: '<unset>', Reason: '', Age: undefined, VolumeMode: 'Block',
  });
  assert.equal(cellsByColumn('', 'v1', 'persistentvolumes', { metadata: { deletionTimestamp: ago(1) }, status: { phase: 'Bound' } }).Status, 'Terminating');
});

test('persistent volume claims show capacity and modes only once bound', () => {
  const pending = cellsByColumn('', 'v1', 'persistentvolumeclaims', goldenObject('object-pvc-pvc1.json'));
  assert.deepEqual([pending.Status, pending.Volume, pending.Capacity, pending['Access Modes']], ['Pending', '', '', '']);
  const bound = cellsByColumn('', 'v1', 'persistentvolumeclaims', {
    spec: { volumeName: 'pv1', storageClassName: 'fast', volumeAttributesClassName: 'gold' },
    status: { phase: 'Bound', capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOncePod'] },
  });
  assert.deepEqual([bound.Status, bound.Volume, bound.Capacity, bound['Access Modes'], bound.StorageClass, bound.VolumeAttributesClass, bound.VolumeMode],
    ['Bound', 'pv1', '5Gi', 'RWOP', 'fast', 'gold', '<unset>']);
});

test('core events: target, source, count and times', () => {
  const cells = cellsByColumn('', 'v1', 'events', {
    metadata: { name: 'p.17a' },
    involvedObject: { kind: 'Pod', name: 'p', fieldPath: 'spec.containers{app}' },
    reason: 'Pulled',
    message: '  Image pulled \n',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: ago(600),
    lastTimestamp: ago(30),
    count: 4,
    type: 'Normal',
  });
  assert.deepEqual(cells, {
    'Last Seen': '30s', Type: 'Normal', Reason: 'Pulled', Object: 'pod/p', Subobject: 'spec.containers{app}',
    Source: 'kubelet, node-1', Message: 'Image pulled', 'First Seen': '10m', Count: 4, Name: 'p.17a',
  });
});

test('events.k8s.io events: regarding, note, series and eventTime', () => {
  const cells = cellsByColumn('events.k8s.io', 'v1', 'events', {
    metadata: { name: 'e' },
    regarding: { kind: 'Node' },
    note: 'rebooted',
    // Sub-second precision counts: 59.88 s ago reads 59s.
    eventTime: '2026-11-21T09:59:00.123456Z',
    series: { count: 7, lastObservedTime: ago(5) },
    reportingController: 'kubelet',
    type: 'Warning',
    reason: 'Rebooted',
  });
  assert.deepEqual([cells['Last Seen'], cells['First Seen'], cells.Object, cells.Source, cells.Message, cells.Count],
    ['5s', '59s', 'node', 'kubelet', 'rebooted', 7]);
  assert.equal(cellsByColumn('events.k8s.io', 'v1', 'events', { eventTime: ago(10) }).Count, 1);
});

test('ingresses: class, hosts (at most three), address and ports', () => {
  const captured = cellsByColumn('networking.k8s.io', 'v1', 'ingresses', goldenObject('object-ingress-ing1.json'));
  assert.deepEqual([captured.Class, captured.Hosts, captured.Address, captured.Ports], ['<none>', 'a.example.com', '', '80']);
  const many = cellsByColumn('networking.k8s.io', 'v1', 'ingresses', {
    spec: { ingressClassName: 'nginx', rules: [{ host: 'a' }, {}, { host: 'b' }, { host: 'c' }, { host: 'd' }], tls: [{ hosts: ['a'] }] },
    status: { loadBalancer: { ingress: [{ hostname: 'lb' }, { ip: '1.2.3.4' }] } },
  });
  assert.deepEqual([many.Class, many.Hosts, many.Address, many.Ports], ['nginx', 'a,b,c + 2 more...', '1.2.3.4,lb', '80, 443']);
  assert.equal(cellsByColumn('networking.k8s.io', 'v1', 'ingresses', { spec: { rules: [{}] } }).Hosts, '*');
});

test('role bindings and cluster role bindings', () => {
  const binding = {
    roleRef: { kind: 'ClusterRole', name: 'view' },
    subjects: [
      { kind: 'User', name: 'alice' }, { kind: 'User', name: 'bob' }, { kind: 'Group', name: 'devs' },
      { kind: 'ServiceAccount', namespace: 'ci', name: 'bot' },
    ],
  };
  for (const resource of ['rolebindings', 'clusterrolebindings']) {
    const cells = cellsByColumn('rbac.authorization.k8s.io', 'v1', resource, binding);
    assert.deepEqual([cells.Role, cells.Users, cells.Groups, cells.ServiceAccounts], ['ClusterRole/view', 'alice, bob', 'devs', 'ci/bot']);
  }
});

test('cluster roles and custom resource definitions use the default table', () => {
  const created = '2026-11-21T08:00:00Z';
  assert.deepEqual(cellsByColumn('rbac.authorization.k8s.io', 'v1', 'clusterroles', { metadata: { name: 'view', creationTimestamp: created } }),
    { Name: 'view', 'Created At': created });
  assert.deepEqual(cellsByColumn('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', { metadata: { name: 'widgets.example.com', creationTimestamp: created } }),
    { Name: 'widgets.example.com', 'Created At': created });
});

test('storage classes mark the default class and show defaults for unset fields', () => {
  const cells = cellsByColumn('storage.k8s.io', 'v1', 'storageclasses', {
    metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    provisioner: 'rancher.io/local-path',
  });
  assert.deepEqual({ ...cells, Age: undefined }, {
    Name: 'standard (default)', Provisioner: 'rancher.io/local-path', ReclaimPolicy: 'Delete', VolumeBindingMode: 'Immediate',
    AllowVolumeExpansion: false, Age: undefined,
  });
});

test('leases, API services, priority classes, pod disruption budgets', () => {
  assert.equal(cellsByColumn('coordination.k8s.io', 'v1', 'leases', { spec: { holderIdentity: 'node-1' } }).Holder, 'node-1');
  assert.equal(cellsByColumn('coordination.k8s.io', 'v1', 'leases', { spec: {} }).Holder, '');
  const local = cellsByColumn('apiregistration.k8s.io', 'v1', 'apiservices', {
    metadata: { name: 'v1.apps' }, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] },
  });
  assert.deepEqual([local.Service, local.Available], ['Local', 'True']);
  const remote = cellsByColumn('apiregistration.k8s.io', 'v1', 'apiservices', {
    spec: { service: { namespace: 'kube-system', name: 'metrics-server' } },
    status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] },
  });
  assert.deepEqual([remote.Service, remote.Available], ['kube-system/metrics-server', 'False (MissingEndpoints)']);
  assert.equal(cellsByColumn('apiregistration.k8s.io', 'v1', 'apiservices', {}).Available, 'Unknown');
  const pc = cellsByColumn('scheduling.k8s.io', 'v1', 'priorityclasses', { value: 1000, globalDefault: true });
  assert.deepEqual([pc.Value, pc['Global-Default'], pc.PreemptionPolicy], [1000, true, '']);
  const pdb = cellsByColumn('policy', 'v1', 'poddisruptionbudgets', { spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 2 } });
  assert.deepEqual([pdb['Min Available'], pdb['Max Unavailable'], pdb['Allowed Disruptions']], ['50%', 'N/A', 2]);
});

test('horizontal pod autoscalers of v2 and v1', () => {
  const v2 = cellsByColumn('autoscaling', 'v2', 'horizontalpodautoscalers', {
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
        { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1k' } } },
        { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '30' } } },
      ],
    },
    status: { currentReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40 } } }] },
  });
  assert.deepEqual([v2.Reference, v2.Targets, v2.MinPods, v2.MaxPods, v2.Replicas],
    ['Deployment/web', 'cpu: 40%/80%, <unknown>/1k + 1 more...', '2', 10, 3]);
  const v1 = cellsByColumn('autoscaling', 'v1', 'horizontalpodautoscalers', {
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 4, targetCPUUtilizationPercentage: 50 },
  });
  assert.deepEqual([v1.Targets, v1.MinPods], ['cpu: <unknown>/50%', '<unset>']);
});

test('certificate signing requests', () => {
  const cells = cellsByColumn('certificates.k8s.io', 'v1', 'certificatesigningrequests', {
    spec: { signerName: 'example.com/signer', username: 'alice', expirationSeconds: 86400 },
    status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'LS0t' },
  });
  assert.deepEqual([cells.SignerName, cells.Requestor, cells.RequestedDuration, cells.Condition],
    ['example.com/signer', 'alice', '24h', 'Approved,Issued']);
});
