/**
 * What every verb of the generic store needs: the type's definition and strategy, the storage for
 * writes, the watch cache for reads, and the injected clock and uid source.
 */
import type { ResourceDefinition } from '../catalog/resource-definition.js';
import type { Storage } from '../../storage/storage.js';
import type { WatchCache } from '../../storage/cacher/cache-types.js';
import type { ResourceRef } from '../../api/errors.js';
import type { KeyLayout } from '../keys.js';
import type { KubeObject } from '../object.js';
import type { UserInfo } from '../../auth/user-info.js';
import type { Strategy } from '../strategy.js';
import type { FieldManager } from '../../apply/field-manager.js';

/** Checked before an object is created in a namespace (upstream's NamespaceLifecycle admission). */
export interface NamespaceGate {
  /**
   * Throws 404 when the namespace does not exist, 403 when it is being terminated. `ref` names the
   * object being created, for the message.
   */
  checkCreate(namespace: string, ref: ResourceRef): Promise<void> | void;
}

export interface StoreContext {
  readonly definition: ResourceDefinition;
  readonly strategy: Strategy;
  readonly storage: Storage;
  readonly cache: WatchCache<KubeObject>;
  readonly keys: KeyLayout;
  readonly clock: () => number;
  readonly newUid: () => string;
  readonly namespaces: NamespaceGate | undefined;
  /** Records field ownership (metadata.managedFields); undefined: writes are not recorded. */
  readonly fields: FieldManager | undefined;
}

/** Per-request options of a write. */
export interface WriteOptions {
  readonly dryRun: boolean;
  /** "" for the main resource. */
  readonly subresource: string;
  /** The requesting user; creates hand it to the strategy (see StrategyContext.user). */
  readonly user?: UserInfo;
  /**
   * The field manager the write is recorded under in metadata.managedFields; undefined: not
   * recorded (writes of the server's own, and applies, which record themselves).
   */
  readonly manager?: string;
  /**
   * The subresource the manager's entry names, when the write goes through another (the scale
   * subresource writes the main resource's spec.replicas); `subresource` otherwise.
   */
  readonly managerSubresource?: string;
}

export function objectKey(ctx: StoreContext, namespace: string, name: string): string {
  const d = ctx.definition;
  return ctx.keys.objectKey(d.group, d.resource, d.namespaced ? namespace : '', name);
}

export function refOf(ctx: StoreContext, name: string): ResourceRef {
  return { resource: ctx.definition.resource, group: ctx.definition.group, name };
}
