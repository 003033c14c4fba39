/**
 * The object model the registry works on: decoded JSON, with typed access to the metadata fields
 * every stored kind shares. Objects are plain data; the registry copies before it mutates anything
 * that may be shared (the watch cache shares decoded objects between readers).
 */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** The metadata of an object, created empty if absent. */
export function metaOf(object: KubeObject): ObjectMeta {
  if (object.metadata === undefined || object.metadata === null || typeof object.metadata !== 'object') object.metadata = {};
  return object.metadata;
}

/** Deep equality of JSON data (member order and undefined members ignored); one implementation for the server. */
export { jsonEqual } from '../patch/json-equal.js';

let lastSecond = NaN;
let lastTimestamp = '';

/** RFC 3339 with second precision, as upstream's metav1.Time serializes. */
export function timestamp(ms: number): string {
  // Writes come thousands a second: the same second's text is made once.
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastTimestamp = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastTimestamp;
}

/** Upstream's field order of ObjectMeta, so responses read like upstream's. */
const META_ORDER = [
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation',
  'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations',
  'ownerReferences', 'finalizers', 'managedFields',
];

/**
 * Returns the object with kind, apiVersion and metadata first and metadata fields in upstream's
 * order; other fields keep their order. Does not copy nested values. `resourceVersion`, when
 * given, stands in for the object's own (object-codec.ts marks its place with one).
 */
export function canonicalOrder(object: KubeObject, resourceVersion?: string): KubeObject {
  const out: KubeObject = {};
  if (object.kind !== undefined) out.kind = object.kind;
  if (object.apiVersion !== undefined) out.apiVersion = object.apiVersion;
  if (object.metadata !== undefined) {
    const meta: ObjectMeta = {};
    const source = object.metadata;
    for (const k of META_ORDER) {
      const value = k === 'resourceVersion' && resourceVersion !== undefined ? resourceVersion : source[k];
      if (value !== undefined) meta[k] = value;
    }
    for (const k of Object.keys(source)) if (!Object.hasOwn(meta, k) && source[k] !== undefined) putOwn(meta, k, source[k]);
    out.metadata = meta;
  }
  for (const k of Object.keys(object)) if (!Object.hasOwn(out, k)) putOwn(out, k, object[k]);
  return out;
}

/**
 * Sets an own property, also for `__proto__` (which JSON.parse makes an ordinary key, and which
 * assignment would take as the prototype, losing the field).
 */
function putOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
