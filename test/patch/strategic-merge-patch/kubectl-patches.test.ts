import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEPLOYMENT, edited, smp, type Json } from './smp-fixtures.js';

// Bodies exactly as kubectl 1.33 sent them (captured with -v=9). `label`, `annotate` and `scale`
// send application/merge-patch+json (every kubectl from 1.27 to 1.33 does); their bodies are also
// what `kubectl patch -p` sends as a strategic merge patch, and must merge the same way. `set image`,
// `set env`, `rollout restart`, `edit` and client-side `apply` send strategic merge patches.

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Deployment "web" as the server stored it after `kubectl apply` (status and managedFields left out). */
function web(): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      annotations: { [LAST_APPLIED]: "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"web\"},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"1\"}],\"image\":\"nginx:1.25\",\"name\":\"app\",\"ports\":[{\"containerPort\":80}]},{\"command\":[\"sleep\",\"3600\"],\"image\":\"busybox\",\"name\":\"side\"}]}}}}\n" },
      creationTimestamp: '2026-11-21T10:11:02Z',
      generation: 1,
      labels: { app: 'web' },
      name: 'web',
      namespace: 'default',
      resourceVersion: '33',
      uid: '917b687e-ac0b-4469-9abc-d3b4b8d1cff3',
    },
    spec: {
      progressDeadlineSeconds: 600,
      replicas: 1,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'web' } },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              env: [{ name: 'A', value: '1' }],
              image: 'nginx:1.25',
              imagePullPolicy: 'IfNotPresent',
              name: 'app',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
            {
              command: ['sleep', '3600'],
              image: 'busybox',
              imagePullPolicy: 'Always',
              name: 'side',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
    },
  };
}

/** Deployment "plain" as stored after `kubectl create deploy plain --image=nginx:1.25 --image=busybox`. */
function plain(): Json {
  return edited(web(), (d) => {
    d.metadata = { creationTimestamp: '2026-11-21T10:10:37Z', generation: 1, labels: { app: 'plain' }, name: 'plain', namespace: 'default', resourceVersion: '29', uid: '93a47866-ba77-4975-9395-3ea2b7afba02' };
    d.spec.selector.matchLabels = { app: 'plain' };
    d.spec.template.metadata.labels = { app: 'plain' };
    const [nginx, busybox] = d.spec.template.spec.containers;
    delete nginx.env;
    delete nginx.ports;
    nginx.name = 'nginx';
    delete busybox.command;
    busybox.name = 'busybox';
  });
}

interface KubectlCase {
  command: string;
  current: () => Json;
  body: string;
  want: (d: Json) => void;
}

const containers = (d: Json): Json[] => d.spec.template.spec.containers;

const cases: KubectlCase[] = [
  { command: 'kubectl label deploy web tier=front', current: web, body: '{"metadata":{"labels":{"tier":"front"}}}', want: (d) => (d.metadata.labels.tier = 'front') },
  { command: 'kubectl label deploy web app-', current: web, body: '{"metadata":{"labels":{"app":null}}}', want: (d) => delete d.metadata.labels.app },
  { command: 'kubectl annotate deploy web note=hello', current: web, body: '{"metadata":{"annotations":{"note":"hello"}}}', want: (d) => (d.metadata.annotations.note = 'hello') },
  {
    command: 'kubectl set image deploy/web app=nginx:1.26',
    current: web,
    body: String.raw`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"},{"name":"side"}],"containers":[{"image":"nginx:1.26","name":"app"}]}}}}`,
    want: (d) => (containers(d)[0]!.image = 'nginx:1.26'),
  },
  {
    command: 'kubectl set env deploy/web B=2',
    current: web,
    body: String.raw`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"},{"name":"side"}],"containers":[{"$setElementOrder/env":[{"name":"A"},{"name":"B"}],"env":[{"name":"B","value":"2"}],"name":"app"},{"env":[{"name":"B","value":"2"}],"name":"side"}]}}}}`,
    want: (d) => {
      containers(d)[0]!.env.push({ name: 'B', value: '2' });
      containers(d)[1]!.env = [{ name: 'B', value: '2' }];
    },
  },
  {
    command: 'kubectl rollout restart deploy/web',
    current: web,
    body: String.raw`{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-21T10:11:03Z"}}}}}`,
    want: (d) => (d.spec.template.metadata.annotations = { 'kubectl.kubernetes.io/restartedAt': '2026-11-21T10:11:03Z' }),
  },
  {
    command: 'kubectl edit deploy/web (both images changed)',
    current: web,
    body: String.raw`{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"web\"},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"1\"}],\"image\":\"nginx:1.27\",\"name\":\"app\",\"ports\":[{\"containerPort\":80}]},{\"command\":[\"sleep\",\"3600\"],\"image\":\"busybox:1.36\",\"name\":\"side\"}]}}}}\n"}},"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"},{"name":"side"}],"containers":[{"image":"nginx:1.27","name":"app"},{"image":"busybox:1.36","name":"side"}]}}}}`,
    want: (d) => {
      d.metadata.annotations[LAST_APPLIED] = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"web\"},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"1\"}],\"image\":\"nginx:1.27\",\"name\":\"app\",\"ports\":[{\"containerPort\":80}]},{\"command\":[\"sleep\",\"3600\"],\"image\":\"busybox:1.36\",\"name\":\"side\"}]}}}}\n";
      containers(d)[0]!.image = 'nginx:1.27';
      containers(d)[1]!.image = 'busybox:1.36';
    },
  },
  {
    command: 'kubectl edit deploy/plain (label and finalizer added, image changed, a container removed)',
    current: plain,
    body: String.raw`{"metadata":{"finalizers":["x.io/keep"],"labels":{"team":"blue"}},"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"}],"containers":[{"image":"nginx:1.26","name":"nginx"},{"$patch":"delete","name":"busybox"}]}}}}`,
    want: (d) => {
      d.metadata.finalizers = ['x.io/keep'];
      d.metadata.labels.team = 'blue';
      containers(d)[0]!.image = 'nginx:1.26';
      containers(d).pop();
    },
  },
  {
    command: 'kubectl edit deploy/plain (a finalizer and a label removed, replicas changed)',
    current: () => edited(plain(), (d) => ((d.metadata.finalizers = ['a.io/one', 'b.io/two']), (d.metadata.labels.gone = 'soon'))),
    body: String.raw`{"metadata":{"$deleteFromPrimitiveList/finalizers":["a.io/one"],"$setElementOrder/finalizers":["b.io/two"],"labels":{"gone":null}},"spec":{"replicas":4}}`,
    want: (d) => ((d.metadata.finalizers = ['b.io/two']), delete d.metadata.labels.gone, (d.spec.replicas = 4)),
  },
  {
    command: 'kubectl apply (image, replicas, Recreate strategy, a container added)',
    current: web,
    body: String.raw`{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"web\"},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"strategy\":{\"type\":\"Recreate\"},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"1\"}],\"image\":\"nginx:1.28\",\"name\":\"app\",\"ports\":[{\"containerPort\":80}]},{\"command\":[\"sleep\",\"3600\"],\"image\":\"busybox\",\"name\":\"side\"},{\"image\":\"redis\",\"name\":\"extra\"}]}}}}\n"}},"spec":{"replicas":3,"strategy":{"$retainKeys":["type"],"type":"Recreate"},"template":{"spec":{"$setElementOrder/containers":[{"name":"app"},{"name":"side"},{"name":"extra"}],"containers":[{"image":"nginx:1.28","name":"app"},{"image":"redis","name":"extra"}]}}}}`,
    want: (d) => {
      d.metadata.annotations[LAST_APPLIED] = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"web\"},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"strategy\":{\"type\":\"Recreate\"},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"1\"}],\"image\":\"nginx:1.28\",\"name\":\"app\",\"ports\":[{\"containerPort\":80}]},{\"command\":[\"sleep\",\"3600\"],\"image\":\"busybox\",\"name\":\"side\"},{\"image\":\"redis\",\"name\":\"extra\"}]}}}}\n";
      d.spec.replicas = 3;
      d.spec.strategy = { type: 'Recreate' };
      containers(d)[0]!.image = 'nginx:1.28';
      containers(d).push({ image: 'redis', name: 'extra' });
    },
  },
  {
    command: 'kubectl apply (a container removed)',
    current: web,
    body: String.raw`{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"web\"},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"1\"}],\"image\":\"nginx:1.25\",\"name\":\"app\",\"ports\":[{\"containerPort\":80}]}]}}}}\n"}},"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"$patch":"delete","name":"side"}]}}}}`,
    want: (d) => {
      d.metadata.annotations[LAST_APPLIED] = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"web\"},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"1\"}],\"image\":\"nginx:1.25\",\"name\":\"app\",\"ports\":[{\"containerPort\":80}]}]}}}}\n";
      containers(d).pop();
    },
  },
];

describe('strategic merge patch: what kubectl sends', () => {
  for (const c of cases) {
    it(c.command, () => {
      const current = c.current();
      const result = smp(DEPLOYMENT, current, c.body);
      assert.deepEqual(result.value, edited(c.current(), c.want));
      assert.deepEqual(result.strictErrors, []);
      assert.deepEqual(current, c.current());
    });
  }
});
