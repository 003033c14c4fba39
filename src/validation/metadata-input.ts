/**
 * The metadata fields validation reads, typed loosely enough that any decoded object's metadata
 * (including the registry's ObjectMeta) can be passed in. Validation never modifies it.
 */

export interface OwnerReferenceInput {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly controller?: boolean | null;
  readonly blockOwnerDeletion?: boolean | null;
}

export interface ObjectMetaInput {
  readonly name?: string;
  readonly generateName?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly creationTimestamp?: string | null;
  readonly deletionTimestamp?: string | null;
  readonly deletionGracePeriodSeconds?: number | null;
  readonly labels?: Readonly<Record<string, string>> | null;
  readonly annotations?: Readonly<Record<string, string>> | null;
  readonly ownerReferences?: readonly OwnerReferenceInput[] | null;
  readonly finalizers?: readonly string[] | null;
  readonly managedFields?: readonly unknown[] | null;
}
