/**
 * The metadata-only representation: an object reduced to kind, apiVersion and metadata
 * (PartialObjectMetadata), and a list of those (PartialObjectMetadataList). Upstream builds it by
 * copying the typed ObjectMeta, so unknown metadata keys are dropped, keys come in ObjectMeta's
 * declaration order and empty values are omitted as Go's `omitempty` omits them.
 */
import { metaApiVersion, type MetaSpelling, type MetaVersion } from './meta-group-version.js';

/** A decoded object as the registry hands it over: plain JSON. */
export type ApiObject = { readonly [field: string]: unknown };

/** The list metadata a list response carries; empty strings and undefined are left out. */
export interface ListMetaInput {
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number | null;
}

/** ListMeta as it is serialized, keys in upstream's order. */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: string;
  metadata: Record<string, unknown>;
}

export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: string;
  metadata: ListMeta;
  /** `null` for an empty list: upstream appends to a nil slice, which Go encodes as null. */
  items: PartialObjectMetadata[] | null;
}

/**
 * ObjectMeta's fields in declaration order, with whether Go omits the zero value. Only
 * creationTimestamp is a struct (metav1.Time), which `omitempty` never omits: absent, it is null.
 */
const OBJECT_META_FIELDS: readonly (readonly [name: string, keepZero: boolean])[] = [
  ['name', false],
  ['generateName', false],
  ['namespace', false],
  ['selfLink', false],
  ['uid', false],
  ['resourceVersion', false],
  ['generation', false],
  ['creationTimestamp', true],
  ['deletionTimestamp', false],
  // A pointer in Go: 0 is a real value and is kept.
  ['deletionGracePeriodSeconds', true],
  ['labels', false],
  ['annotations', false],
  ['ownerReferences', false],
  ['finalizers', false],
  ['managedFields', false],
];

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/**
 * The object's metadata as upstream's ObjectMeta serializes it. Nested values (labels,
 * managedFields...) are shared with the input, not copied; nothing is mutated.
 */
function objectMetaOf(object: ApiObject): Record<string, unknown> {
  const source = object.metadata;
  const meta = typeof source === 'object' && source !== null ? (source as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const [name, keepZero] of OBJECT_META_FIELDS) {
    const value = meta[name];
    if (name === 'creationTimestamp') out[name] = value ?? null;
    else if (keepZero ? value !== undefined && value !== null : !isEmpty(value)) out[name] = value;
  }
  return out;
}

/**
 * The metadata-only form of one object (GET with `as=PartialObjectMetadata`, and the `object` of a
 * Table row by default).
 * @param spelling the meta group spelling the client asked with.
 * @param version meta.k8s.io/v1 (default) or v1beta1, as the client asked.
 */
export function toPartialObjectMetadata(
  object: ApiObject,
  spelling: MetaSpelling,
  version: MetaVersion = 'v1',
): PartialObjectMetadata {
  return { kind: 'PartialObjectMetadata', apiVersion: metaApiVersion(spelling, version), metadata: objectMetaOf(object) };
}

/** ListMeta in upstream's key order with Go's `omitempty` applied (remainingItemCount is a pointer). */
export function listMetaOf(input: ListMetaInput | undefined): ListMeta {
  const out: ListMeta = {};
  if (input?.resourceVersion) out.resourceVersion = input.resourceVersion;
  if (input?.continue) out.continue = input.continue;
  if (typeof input?.remainingItemCount === 'number') out.remainingItemCount = input.remainingItemCount;
  return out;
}

/**
 * The metadata-only form of a list (LIST with `as=PartialObjectMetadataList`). Every item carries
 * kind PartialObjectMetadata and the same apiVersion as the list, as in upstream's responses.
 * @param listMeta resourceVersion, continue and remainingItemCount of the list response.
 */
export function toPartialObjectMetadataList(
  objects: readonly ApiObject[],
  listMeta: ListMetaInput | undefined,
  spelling: MetaSpelling,
  version: MetaVersion = 'v1',
): PartialObjectMetadataList {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: metaApiVersion(spelling, version),
    metadata: listMetaOf(listMeta),
    items: objects.length === 0 ? null : objects.map((o) => toPartialObjectMetadata(o, spelling, version)),
  };
}
