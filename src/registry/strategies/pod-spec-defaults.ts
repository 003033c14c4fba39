/**
 * Upstream's v1 defaults of a PodSpec (SetDefaults_PodSpec, _Container, _Volume, _Probe, ...), the
 * part shared by Pods and every pod template (Deployments, Jobs, ...). Pod-only defaults live in
 * pod-defaults.ts.
 */
import { asRecord, defaultTo, isRecord, recordAt, recordsAt, stringAt, type JsonRecord } from './json-access.js';

/** Upstream's default file mode of projected, secret, config map and downward API volumes (0644). */
export const DEFAULT_VOLUME_MODE = 420;

/** Applies the PodSpec defaults to `spec` in place. */
export function defaultPodSpec(spec: JsonRecord): void {
  defaultTo(spec, 'dnsPolicy', 'ClusterFirst');
  defaultTo(spec, 'restartPolicy', 'Always');
  defaultTo(spec, 'schedulerName', 'default-scheduler');
  defaultTo(spec, 'securityContext', {});
  defaultTo(spec, 'terminationGracePeriodSeconds', 30);
  mirrorServiceAccount(spec);
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const container of recordsAt(spec, list)) defaultContainer(container);
  }
  for (const volume of recordsAt(spec, 'volumes')) defaultVolume(volume);
}

/**
 * The deprecated `serviceAccount` field and `serviceAccountName` are one field in upstream's
 * internal model: the name wins, and the deprecated field reads back as the name.
 */
function mirrorServiceAccount(spec: JsonRecord): void {
  const name = stringAt(spec, 'serviceAccountName') || stringAt(spec, 'serviceAccount');
  if (name) {
    spec['serviceAccountName'] = name;
    spec['serviceAccount'] = name;
  } else {
    delete spec['serviceAccount'];
  }
}

function defaultContainer(container: JsonRecord): void {
  const image = stringAt(container, 'image');
  if (image !== undefined) defaultTo(container, 'imagePullPolicy', pullPolicyFor(image));
  defaultTo(container, 'terminationMessagePath', '/dev/termination-log');
  defaultTo(container, 'terminationMessagePolicy', 'File');
  // Go serializes the (non-pointer) resources struct even when empty.
  defaultTo(container, 'resources', {});
  for (const port of recordsAt(container, 'ports')) defaultTo(port, 'protocol', 'TCP');
  for (const env of recordsAt(container, 'env')) defaultFieldRef(recordAt(env, 'valueFrom'));
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(recordAt(container, probe));
  const lifecycle = recordAt(container, 'lifecycle');
  for (const hook of ['postStart', 'preStop']) defaultHttpGet(recordAt(lifecycle, hook));
}

/**
 * Always for `:latest` or an untagged image without a digest (the tag may move), IfNotPresent
 * otherwise, as upstream's SetDefaults_Container.
 */
export function pullPolicyFor(image: string): 'Always' | 'IfNotPresent' {
  const [withoutDigest, digest] = image.split('@', 2) as [string, string | undefined];
  const lastComponent = withoutDigest.slice(withoutDigest.lastIndexOf('/') + 1);
  const colon = lastComponent.lastIndexOf(':');
  const tag = colon >= 0 ? lastComponent.slice(colon + 1) : digest === undefined ? 'latest' : '';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(probe: JsonRecord | undefined): void {
  if (!probe) return;
  defaultTo(probe, 'timeoutSeconds', 1);
  defaultTo(probe, 'periodSeconds', 10);
  defaultTo(probe, 'successThreshold', 1);
  defaultTo(probe, 'failureThreshold', 3);
  defaultHttpGet(probe);
}

function defaultHttpGet(handler: JsonRecord | undefined): void {
  const httpGet = recordAt(handler, 'httpGet');
  if (!httpGet) return;
  defaultTo(httpGet, 'path', '/');
  defaultTo(httpGet, 'scheme', 'HTTP');
}

function defaultFieldRef(holder: JsonRecord | undefined): void {
  const fieldRef = recordAt(holder, 'fieldRef');
  if (fieldRef) defaultTo(fieldRef, 'apiVersion', 'v1');
}

/** Volume sources with a defaulted file mode. */
const MODE_SOURCES = ['secret', 'configMap', 'downwardAPI', 'projected'];
/** Every volume source field of v1.Volume (a volume naming none of them becomes an emptyDir). */
const VOLUME_SOURCES = new Set([
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi',
  'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc',
  'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected',
  'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral', 'image',
]);

function defaultVolume(volume: JsonRecord): void {
  if (!Object.keys(volume).some((key) => VOLUME_SOURCES.has(key) && isRecord(volume[key]))) volume['emptyDir'] = {};
  for (const source of MODE_SOURCES) {
    const value = recordAt(volume, source);
    if (value) defaultTo(value, 'defaultMode', DEFAULT_VOLUME_MODE);
  }
  for (const item of recordsAt(recordAt(volume, 'downwardAPI'), 'items')) defaultFieldRef(item);
  for (const source of recordsAt(recordAt(volume, 'projected'), 'sources')) {
    for (const item of recordsAt(recordAt(source, 'downwardAPI'), 'items')) defaultFieldRef(item);
    const token = recordAt(source, 'serviceAccountToken');
    if (token) defaultTo(token, 'expirationSeconds', 3600);
  }
  const hostPath = recordAt(volume, 'hostPath');
  if (hostPath) defaultTo(hostPath, 'type', '');
  const iscsi = recordAt(volume, 'iscsi');
  if (iscsi) defaultTo(iscsi, 'iscsiInterface', 'default');
  const azureDisk = recordAt(volume, 'azureDisk');
  if (azureDisk) {
    defaultTo(azureDisk, 'cachingMode', 'ReadWrite');
    defaultTo(azureDisk, 'fsType', 'ext4');
    defaultTo(azureDisk, 'readOnly', false);
    defaultTo(azureDisk, 'kind', 'Shared');
  }
}

/**
 * Applies the pod template defaults: the template's spec, created when absent. The template's
 * metadata is a struct Go always serializes, so upstream shows `metadata: {}` when it is empty.
 */
export function defaultPodTemplate(template: JsonRecord): void {
  defaultTo(template, 'metadata', {});
  defaultPodSpec(asRecord(template, 'spec'));
}
