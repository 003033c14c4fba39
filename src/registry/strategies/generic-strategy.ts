/**
 * The rules every built-in type shares, derived from its definition:
 * - a type with a status subresource keeps spec and status apart: creates start with an empty
 *   status, writes to the main resource keep the stored status, and writes to /status keep
 *   everything else;
 * - a type with a spec counts metadata.generation: 1 on create, +1 on each change of the spec
 *   (everything outside metadata and status).
 * Type-specific strategies extend this class and override what they need.
 */
import type { FieldError } from '../../api/errors.js';
import type { ResourceDefinition } from '../catalog/resource-definition.js';
import { jsonEqual, metaOf, type KubeObject } from '../object.js';
import type { DeleteRequest, Strategy, StrategyContext } from '../strategy.js';
import type { NameValidator } from '../../validation/name-validators.js';

/** Core-group types that count generation (upstream sets it in their strategies). */
const CORE_TYPES_WITH_GENERATION = new Set(['pods', 'replicationcontrollers']);

export interface GenericStrategyOptions {
  readonly validateName: NameValidator;
  /** Whether the type's schema has a `spec` field (may be a getter that reads the schema, see strategyFor). */
  readonly hasSpec: boolean;
  /** Whether the type's schema has a `status` field. */
  readonly hasStatus: boolean;
  /** Whether PUT of an absent object creates it (upstream decides per type); default false. */
  readonly allowCreateOnUpdate?: boolean;
}

export class GenericStrategy implements Strategy {
  readonly allowCreateOnUpdate: boolean;
  readonly allowUnconditionalUpdate: boolean = true;
  readonly returnDeletedObject: boolean = false;
  protected readonly hasStatusSubresource: boolean;

  constructor(
    protected readonly definition: ResourceDefinition,
    protected readonly options: GenericStrategyOptions,
  ) {
    this.allowCreateOnUpdate = options.allowCreateOnUpdate ?? false;
    this.hasStatusSubresource = definition.subresources['status'] !== undefined;
  }

  /** Whether metadata.generation counts spec changes; asked when needed, as hasSpec may read a schema. */
  protected get countsGeneration(): boolean {
    const { definition } = this;
    return this.options.hasSpec && (definition.group !== '' || CORE_TYPES_WITH_GENERATION.has(definition.resource));
  }

  validateName(name: string, prefix: boolean): string[] {
    return this.options.validateName(name, prefix);
  }

  prepareForCreate(object: KubeObject, _ctx: StrategyContext): void {
    if (this.hasStatusSubresource && this.options.hasStatus) object['status'] = {};
    if (this.countsGeneration) metaOf(object).generation = 1;
    else delete metaOf(object).generation;
  }

  prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === 'status') {
      this.keepAllButStatus(object, old);
      return;
    }
    if (this.hasStatusSubresource) {
      if (old['status'] === undefined) delete object['status'];
      else object['status'] = old['status'];
    }
    if (this.countsGeneration && specChanged(object, old)) {
      metaOf(object).generation = (metaOf(old).generation ?? 0) + 1;
    }
  }

  /** A status write changes status only (and nothing of metadata but what the server keeps). */
  protected keepAllButStatus(object: KubeObject, old: KubeObject): void {
    const status = object['status'];
    for (const key of Object.keys(object)) if (key !== 'metadata' && key !== 'status') delete object[key];
    for (const key of Object.keys(old)) if (key !== 'metadata' && key !== 'status') object[key] = old[key];
    const meta = metaOf(object);
    const oldMeta = metaOf(old);
    for (const field of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
      if (oldMeta[field] === undefined) delete meta[field];
      else meta[field] = oldMeta[field] as never;
    }
    if (status === undefined) delete object['status'];
  }

  validate(_object: KubeObject, _ctx: StrategyContext): FieldError[] {
    return [];
  }

  validateUpdate(_object: KubeObject, _old: KubeObject, _ctx: StrategyContext): FieldError[] {
    return [];
  }

  gracePeriod(_object: KubeObject, _request: DeleteRequest): number {
    return 0;
  }

  hasPendingFinalizers(_object: KubeObject): boolean {
    return false;
  }

  prepareForDeletion(_object: KubeObject): void {}
}

/** Whether anything outside metadata and status differs. */
export function specChanged(object: KubeObject, old: KubeObject): boolean {
  const keys = new Set([...Object.keys(object), ...Object.keys(old)]);
  for (const key of keys) {
    if (key === 'metadata' || key === 'status' || key === 'kind' || key === 'apiVersion') continue;
    if (!jsonEqual(object[key], old[key])) return true;
  }
  return false;
}
