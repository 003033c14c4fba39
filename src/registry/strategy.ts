/**
 * A strategy holds the rules of one resource type, called by the generic store in a fixed order
 * (upstream's rest.BeforeCreate / BeforeUpdate):
 *   create: prepareForCreate → (generic metadata rules) → validate
 *   update: prepareForUpdate → (generic metadata rules) → validateUpdate
 * Strategies mutate the object they are given (a private copy) and return field errors; they know
 * nothing of HTTP or storage.
 */
import type { FieldError } from '../api/errors.js';
import type { UserInfo } from '../auth/user-info.js';
import type { KubeObject } from './object.js';

export interface StrategyContext {
  /** Request time, ms since epoch. */
  readonly now: number;
  readonly dryRun: boolean;
  /** The subresource being written ("" for the main resource, "status", "scale", ...). */
  readonly subresource: string;
  /**
   * The requesting user, on creates made through the API (a CertificateSigningRequest records who
   * asked for it); absent on updates and on the server's own writes.
   */
  readonly user?: UserInfo;
}

/** What a delete request asked for (metav1.DeleteOptions, the parts a strategy sees). */
export interface DeleteRequest {
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: string;
  readonly dryRun: boolean;
}

/**
 * What a write reserved outside the object before it reached storage (a Service's cluster IP and
 * node ports). The store settles it exactly once, after the write.
 */
export interface Reservation {
  /**
   * `committed` is true when the write reached storage (or was a no-op), false when it failed,
   * lost a conflict, or was abandoned. Releasing what a failed write reserved keeps values from
   * leaking; a committed update releases what the old object held and the new one does not.
   * Never throws.
   */
  settle(committed: boolean): Promise<void>;
}

/** What afterDelete is told about the delete. */
export interface DeletedContext {
  readonly now: number;
}

export interface Strategy {
  /**
   * Validates metadata.name, or with `prefix` a metadata.generateName (which gets a random suffix).
   * Returns error messages in upstream's words, empty when valid. Default: DNS-1123 subdomain.
   */
  validateName(name: string, prefix: boolean): string[];
  /** Whether PUT of an absent object creates it (upstream: true for few types, e.g. ConfigMap... see each strategy). */
  readonly allowCreateOnUpdate: boolean;
  /** Whether PUT without metadata.resourceVersion is accepted (last write wins). */
  readonly allowUnconditionalUpdate: boolean;
  /** Whether a delete that removes the object answers with the object (true) or a Status (false). */
  readonly returnDeletedObject: boolean;
  /** Defaulting and clearing of fields a create may not set (status of types with a status subresource). */
  prepareForCreate(object: KubeObject, ctx: StrategyContext): void;
  /** Carries over what an update may not change (status on the main resource, spec on status). */
  prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  validate(object: KubeObject, ctx: StrategyContext): FieldError[];
  validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  /**
   * The grace period a delete should use, or 0 to delete at once. Called only when the object is
   * not already being deleted with a shorter period.
   */
  gracePeriod(object: KubeObject, request: DeleteRequest): number;
  /**
   * Whether something besides metadata.finalizers still holds a deleted object (a Namespace's
   * spec.finalizers). The object is removed only when this and metadata.finalizers are clear.
   */
  hasPendingFinalizers(object: KubeObject): boolean;
  /** Called once when an object is first marked for deletion (a Namespace turns Terminating). */
  prepareForDeletion(object: KubeObject): void;
  /**
   * Optional. Refuses the delete of an object that may never be deleted (upstream forbids deleting
   * the `default`, `kube-system` and `kube-public` namespaces). Throws an ApiError (403 Forbidden).
   * The store calls it on every delete (and for each item of a deletecollection) before anything
   * is marked or removed, also for dry runs.
   */
  checkDelete?(object: KubeObject): void;
  /**
   * Optional. Reserves what the object needs outside itself (IPs, ports) and writes the reserved
   * values into it. The store calls it on create after prepareForCreate and validate succeeded
   * (and the namespace check passed), once, just before the storage write (outside the
   * generated-name retry loop), also for dry runs: then nothing is reserved for real and the values
   * are only likely to be free. The store must call `settle(true)` after the write succeeded and
   * `settle(false)` when anything after beginCreate failed. Throws an ApiError (422 Invalid when a
   * requested value is taken or out of range).
   */
  beginCreate?(object: KubeObject, ctx: StrategyContext): Promise<Reservation>;
  /**
   * Optional. As beginCreate, for updates (main resource and subresources; the strategy ignores
   * writes that cannot change reservations). The store calls it after prepareForUpdate and
   * validateUpdate succeeded, once per attempt of the read-modify-write loop, and settles it after
   * that attempt: `settle(true)` when written (or a no-op), `settle(false)` on a conflict (before
   * retrying) or any other failure.
   */
  beginUpdate?(object: KubeObject, old: KubeObject, ctx: StrategyContext): Promise<Reservation>;
  /**
   * Optional. Frees what the object held (beginCreate/beginUpdate's reservations). The store calls
   * it after an object was removed from storage for real (delete, deletecollection, or an update
   * that completed a pending deletion), never for dry runs, with the object as it was last stored.
   * Never throws.
   */
  afterDelete?(object: KubeObject, ctx: DeletedContext): Promise<void>;
}
