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

/**
 * Checked before every write made through the API (admission plugins that judge writes whatever
 * their namespace, such as AlwaysDeny). Runs after the namespace gate and before the write guard;
 * throws an ApiError. Writes of the server's own are not checked.
 */
export interface WriteAdmission {
  /** `ref` names the object written ("" for a create that only generates its name). */
  checkWrite(ref: ResourceRef): void;
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
  /** Checks API writes of every type further (see WriteAdmission); undefined: none. */
  readonly admission: WriteAdmission | undefined;
  /** Records field ownership (metadata.managedFields); undefined: writes are not recorded. */
  readonly fields: FieldManager | undefined;
  /** Checks API writes of this type further (RBAC types); undefined: none. */
  readonly guard: WriteGuard | undefined;
}

/** What a write guard sees of a write made through the API. */
export interface GuardedWrite {
  readonly user: UserInfo;
  /** The request's namespace ("" for cluster-scoped types). */
  readonly namespace: string;
  /** The request's name ("" for a create, which names the object in its body). */
  readonly name: string;
}

/**
 * Checks a write beyond its verb being authorized, for the types upstream guards in their storage
 * (RBAC's escalation prevention). Runs only for writes with a requesting user, before anything else
 * looks at the object: on create before the strategy prepares it, on update with the new object as
 * the request made it (after a patch is applied), before the update rules. Throws an ApiError.
 */
export interface WriteGuard {
  checkCreate(object: KubeObject, write: GuardedWrite): Promise<void> | void;
  checkUpdate(object: KubeObject, old: KubeObject, write: GuardedWrite): Promise<void> | void;
}

/** Per-request options of a write. */
export interface WriteOptions {
  readonly dryRun: boolean;
  /** "" for the main resource. */
  readonly subresource: string;
  /** The requesting user (writes through the API): creates hand it to the strategy (StrategyContext.user), and a WriteGuard checks it. */
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
