/**
 * What upstream's default admission plugins add to a new pod, done here because Capstan has no
 * separate admission chain for them yet: DefaultTolerationSeconds (tolerations of not-ready and
 * unreachable nodes), Priority (priority and preemptionPolicy) and ServiceAccount (the account name
 * and the projected token volume). Pods only; pod templates are left alone, as upstream.
 */
import { metaOf, type KubeObject } from '../object.js';
import { asRecord, recordsAt, stringAt, type JsonRecord } from './json-access.js';
import type { PodOptions } from './strategy-deps.js';
import { isMirrorPod } from './mirror-pod.js';

export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';

/** Upstream's built-in priority classes, which exist in every cluster. */
const SYSTEM_PRIORITIES: Readonly<Record<string, number>> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

/** Runs the three admission steps on a pod being created. */
export function admitNewPod(pod: KubeObject, options: PodOptions): void {
  const spec = asRecord(pod, 'spec');
  addDefaultTolerations(spec, options);
  defaultPriority(spec);
  defaultServiceAccount(pod, spec, options);
}

/** Adds the NoExecute tolerations of not-ready and unreachable nodes unless one already covers them. */
export function addDefaultTolerations(spec: JsonRecord, options: PodOptions): void {
  const tolerations = recordsAt(spec, 'tolerations');
  const covers = (taint: string) =>
    tolerations.some((t) => (!t['key'] || t['key'] === taint) && (!t['effect'] || t['effect'] === 'NoExecute'));
  const added: JsonRecord[] = [];
  for (const [taint, seconds] of [
    [NOT_READY_TAINT, options.notReadyTolerationSeconds],
    [UNREACHABLE_TAINT, options.unreachableTolerationSeconds],
  ] as const) {
    if (!covers(taint)) added.push({ key: taint, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
  }
  if (added.length > 0) spec['tolerations'] = [...(Array.isArray(spec['tolerations']) ? spec['tolerations'] : []), ...added];
}

/**
 * Priority admission without a global default class: 0, or the value of a built-in system class;
 * other classes keep what the client sent (they would need a PriorityClass lookup).
 */
function defaultPriority(spec: JsonRecord): void {
  const className = stringAt(spec, 'priorityClassName');
  if (spec['priority'] === undefined || spec['priority'] === null) {
    if (!className) spec['priority'] = 0;
    else if (SYSTEM_PRIORITIES[className] !== undefined) spec['priority'] = SYSTEM_PRIORITIES[className];
  }
  if (spec['preemptionPolicy'] === undefined || spec['preemptionPolicy'] === null) spec['preemptionPolicy'] = 'PreemptLowerPriority';
}

/** Where the token volume is mounted in every container. */
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** Upstream's alphabet for random name suffixes (no vowels, no look-alike characters). */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * Names the `default` account when none is set and, when the account is known to exist and the
 * pod does not opt out, adds the `kube-api-access-xxxxx` projected volume and its read-only mounts.
 */
function defaultServiceAccount(pod: KubeObject, spec: JsonRecord, options: PodOptions): void {
  if (isMirrorPod(pod)) return;
  const account = stringAt(spec, 'serviceAccountName') || 'default';
  spec['serviceAccountName'] = account;
  spec['serviceAccount'] = account;
  if (spec['automountServiceAccountToken'] === false) return;
  const namespace = metaOf(pod).namespace ?? '';
  if (options.serviceAccountExists?.(namespace, account) !== true) return;
  const containers = [...recordsAt(spec, 'initContainers'), ...recordsAt(spec, 'containers')];
  if (containers.some((c) => recordsAt(c, 'volumeMounts').some((m) => m['mountPath'] === TOKEN_MOUNT_PATH))) return;
  const name = `kube-api-access-${randomSuffix(options.random ?? Math.random)}`;
  spec['volumes'] = [...(Array.isArray(spec['volumes']) ? spec['volumes'] : []), tokenVolume(name)];
  for (const container of containers) {
    const mounts = Array.isArray(container['volumeMounts']) ? container['volumeMounts'] : [];
    container['volumeMounts'] = [...mounts, { name, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
  }
}

function randomSuffix(random: () => number): string {
  let out = '';
  for (let i = 0; i < 5; i++) out += SUFFIX_ALPHABET[Math.floor(random() * SUFFIX_ALPHABET.length)];
  return out;
}

/**
 * The projected volume upstream mounts: a bound token (3607 s, so kubelets can tell admission-made
 * volumes apart), the cluster CA from the kube-root-ca.crt config map, and the namespace.
 */
function tokenVolume(name: string): JsonRecord {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  };
}
