/**
 * The objects the workloads send: ConfigMaps whose request body is exactly 1 KiB, and a small
 * Deployment for server-side apply. Bodies are {@link RequestPattern} templates (`{n}`, `{t}`).
 */
import { randomBytes } from 'node:crypto';
import type { RequestPattern } from './jobs.js';

/** Request body size of every ConfigMap the benchmark creates. */
const CONFIGMAP_BYTES = 1024;

/** What `{n}` and `{t}` expand to, in characters (see request-pattern.ts). */
const EXPANDED = { '{n}': 7, '{t}': 17 } as const;

function expandedLength(template: string): number {
  let length = template.length;
  for (const [placeholder, width] of Object.entries(EXPANDED)) length += (template.split(placeholder).length - 1) * (width - placeholder.length);
  return length;
}

/**
 * A ConfigMap body template named `name` (may hold `{n}`) with `data` (values may hold `{n}`/`{t}`)
 * and a `payload` key padded so the expanded body is exactly {@link CONFIGMAP_BYTES}. The padding is
 * random base64: incompressible, like real data.
 */
export function configMapBody(name: string, data: Readonly<Record<string, string>> = {}): string {
  const head = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { ...data, payload: '' } });
  const room = CONFIGMAP_BYTES - expandedLength(head);
  if (room < 0) throw new Error(`ConfigMap template ${head} exceeds ${CONFIGMAP_BYTES} bytes`);
  const payload = randomBytes(room).toString('base64').slice(0, room);
  return head.replace('"payload":""', `"payload":"${payload}"`);
}

/** Creates ConfigMaps `${prefix}{n}` in `namespace`, numbered from `first`. */
export function createConfigMaps(namespace: string, prefix: string, first: number): RequestPattern {
  return {
    method: 'POST',
    path: `/api/v1/namespaces/${namespace}/configmaps`,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: configMapBody(`${prefix}{n}`),
    first,
  };
}

/** Server-side apply of Deployment `deploy-{n}` (wrapping after `cycle` names), its replicas varying. */
export function applyDeployments(namespace: string, cycle: number): RequestPattern {
  const yaml = [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: deploy-{n}',
    '  labels: {app: bench, tier: web}',
    '  annotations: {bench/applied-at: "{t}"}',
    'spec:',
    '  replicas: 3',
    '  selector: {matchLabels: {app: bench, instance: deploy-{n}}}',
    '  template:',
    '    metadata: {labels: {app: bench, instance: deploy-{n}}}',
    '    spec:',
    '      containers:',
    '      - name: web',
    '        image: registry.k8s.io/nginx:1.27',
    '        ports: [{containerPort: 8080, name: http}]',
    '        env: [{name: MODE, value: bench}]',
    '        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {memory: 128Mi}}',
    '',
  ].join('\n');
  return {
    method: 'PATCH',
    path: `/apis/apps/v1/namespaces/${namespace}/deployments/deploy-{n}?fieldManager=capstan-bench&force=true`,
    headers: { 'Content-Type': 'application/apply-patch+yaml', Accept: 'application/json' },
    body: yaml,
    first: 0,
    cycle,
  };
}
