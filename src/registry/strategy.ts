/**
 * A strategy holds the rules of one resource type, called by the generic store in a fixed order
 * (upstream's rest.BeforeCreate / BeforeUpdate):
 *   create: prepareForCreate → (generic metadata rules) → validate
 *   update: prepareForUpdate → (generic metadata rules) → validateUpdate
 * Strategies mutate the object they are given (a private copy) and return field errors; they know
 * nothing of HTTP or storage.
 */
import type { FieldError } from '../api/errors.js';
import type { KubeObject } from './object.js';

export interface StrategyContext {
  /** Request time, ms since epoch. */
  readonly now: number;
  readonly dryRun: boolean;
  /** The subresource being written ("" for the main resource, "status", "scale", ...). */
  readonly subresource: string;
}

/** What a delete request asked for (metav1.DeleteOptions, the parts a strategy sees). */
export interface DeleteRequest {
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: string;
  readonly dryRun: boolean;
}

export interface Strategy {
  /**
   * Validates a name (used for metadata.name and generated names). Returns error messages in
   * upstream's words, empty when valid. Default: DNS-1123 subdomain.
   */
  validateName(name: string): string[];
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
}
