/**
 * update: the read-modify-write loop every change of an existing object goes through (PUT, PATCH,
 * the status subresource, marking an object deleted). It reads the stored object, lets the caller
 * compute the new one, applies the update rules, and writes with the read's revision as the
 * precondition, retrying on a concurrent change when the caller allows it.
 */
import { badRequest, conflict, fromStorageError, invalid, notFound, OBJECT_MODIFIED, type FieldError } from '../../api/errors.js';
import { isStorageError } from '../../storage/errors.js';
import { decodeFromStorage, encodeForStorage } from '../object-codec.js';
import { noteWritten } from '../written-json.js';
import { jsonEqual, metaOf, timestamp, type KubeObject } from '../object.js';
import { checkPreconditions, type Preconditions } from './preconditions.js';
import { objectKey, refOf, type StoreContext, type WriteOptions } from './store-context.js';
import { validateMetadata } from './validate-metadata.js';
import type { StrategyContext } from '../strategy.js';
import { apiVersionOf } from '../catalog/resource-definition.js';

export interface UpdateResult {
  readonly object: KubeObject;
  /** True when the object was removed because its last finalizer went away. */
  readonly deleted: boolean;
}

/**
 * Computes the new object from the stored one. It receives a private copy it may mutate and
 * return. Throwing aborts the update. A resourceVersion left in the result must be the stored one
 * (a precondition: 409 otherwise).
 */
export type TryUpdate = (current: KubeObject) => KubeObject | Promise<KubeObject>;

export interface GuaranteedUpdateOptions extends WriteOptions {
  /**
   * Retry when the object changed between read and write. False for a PUT that names a
   * resourceVersion (the conflict is the client's to resolve).
   */
  readonly retryOnConflict: boolean;
  /**
   * Skip the strategy: the server itself writes fields no client may (marking an object deleted,
   * binding a pod to a node, which upstream writes straight to storage past the pod strategy).
   */
  readonly systemUpdate?: boolean;
  /** Checked against the stored object before `tryUpdate` sees it. */
  readonly preconditions?: Preconditions;
}

/** Reads the stored object (a consistent read of the storage); undefined when absent. */
export async function readStored(ctx: StoreContext, namespace: string, name: string): Promise<{ object: KubeObject; modRevision: number } | undefined> {
  try {
    const { kv } = await ctx.storage.get(objectKey(ctx, namespace, name));
    return kv ? { object: decodeFromStorage(kv), modRevision: kv.modRevision } : undefined;
  } catch (err) {
    throw fromStorageError(err, refOf(ctx, name));
  }
}

/** An object as read for an update, and its revision. */
interface Stored {
  readonly object: KubeObject;
  readonly modRevision: number;
}

/** What the watch cache holds for `name` now, whatever its revision; undefined when it cannot say at once. */
function cachedGuess(ctx: StoreContext, key: string): Stored | undefined {
  try {
    const entry = ctx.cache.getNow(key, ANY_REVISION)?.entry;
    return entry && { object: entry.object, modRevision: entry.modRevision };
  } catch {
    return undefined;
  }
}

const ANY_REVISION = { kind: 'any' } as const;

/**
 * Applies `tryUpdate` to the stored object until it is written without a conflict. Throws 404 when
 * the object is absent, 409 on a conflict that may not be retried, 422 for an invalid result.
 *
 * The first attempt starts from the watch cache's object, as upstream's GuaranteedUpdate starts
 * from the cacher's: that saves a storage read and a decode per update (~8% of a server-side
 * apply's CPU). The cache may be behind the store, so an attempt on its object that fails (a check,
 * the strategy, the conditional write) or finds nothing to write is checked against the store: on
 * the same revision its outcome stands, on a newer one the update starts again from the store's
 * object. Dry runs read the store, as upstream's do.
 */
export async function guaranteedUpdate(
  ctx: StoreContext,
  namespace: string,
  name: string,
  tryUpdate: TryUpdate,
  options: GuaranteedUpdateOptions,
): Promise<UpdateResult> {
  const key = objectKey(ctx, namespace, name);
  let next = options.dryRun ? undefined : cachedGuess(ctx, key);
  let fromCache = next !== undefined;
  for (;;) {
    const stored = next ?? (await readStored(ctx, namespace, name));
    next = undefined;
    if (!stored) throw notFound(refOf(ctx, name));
    let outcome: { result: UpdateResult } | { error: unknown };
    try {
      outcome = { result: await updateOnce(ctx, key, name, stored, tryUpdate, options) };
    } catch (error) {
      outcome = { error };
    }
    // What the store must confirm: a failure (but for a write that lost to another writer without
    // leave to retry: the caller's conflict, whatever the cache held) and a no-op, which answers
    // with the object it started from.
    const unconfirmed =
      'error' in outcome ? options.retryOnConflict || !isStorageError(outcome.error, 'conflict') : outcome.result.object === stored.object;
    if (fromCache && unconfirmed) {
      fromCache = false;
      const fresh = await readStored(ctx, namespace, name);
      if (fresh === undefined) throw notFound(refOf(ctx, name));
      if (fresh.modRevision !== stored.modRevision) {
        next = fresh;
        continue;
      }
      // The cache's object was the store's: the outcome stands (a copy: no caller may change the cache's own).
      if ('result' in outcome) return { ...outcome.result, object: structuredClone(outcome.result.object) };
    }
    if ('result' in outcome) return outcome.result;
    const err = outcome.error;
    // Each lost round means another writer's update landed, so retrying until this one lands always
    // makes progress; upstream's GuaranteedUpdate sets no limit either. (A cap of 10 answered 409 to
    // merge patches without a resourceVersion when 50 came at once through two replicas.)
    if (options.retryOnConflict && isStorageError(err, 'conflict')) continue;
    throw asUpdateError(err, ctx, name);
  }
}

/** Storage errors as the API's; what the checks and the strategy threw, as it is. */
function asUpdateError(err: unknown, ctx: StoreContext, name: string): unknown {
  return isStorageError(err) ? fromStorageError(err, refOf(ctx, name)) : err;
}

/** One read-modify-write from `stored`; throws what the checks, the strategy or the write throw. */
async function updateOnce(
  ctx: StoreContext,
  key: string,
  name: string,
  stored: Stored,
  tryUpdate: TryUpdate,
  options: GuaranteedUpdateOptions,
): Promise<UpdateResult> {
  checkPreconditions(ctx, key, stored.object, options.preconditions);
  const updated = await tryUpdate(structuredClone(stored.object));
  // A resourceVersion in the new object is a precondition (the client's to resolve, so no retry);
  // without one the update is checked and written against the version it replaces, as upstream.
  const asked = metaOf(updated).resourceVersion;
  const storedVersion = metaOf(stored.object).resourceVersion;
  if (!asked) metaOf(updated).resourceVersion = storedVersion;
  else if (asked !== storedVersion) throw conflict(refOf(ctx, name), OBJECT_MODIFIED);
  if (options.user && !options.systemUpdate) ctx.admission?.checkWrite(refOf(ctx, name));
  if (ctx.guard && options.user && !options.systemUpdate) {
    const meta = metaOf(stored.object);
    const checking = ctx.guard.checkUpdate(updated, stored.object, { user: options.user, namespace: meta.namespace ?? '', name: meta.name ?? name });
    if (checking) await checking;
  }
  const strategyCtx = { now: ctx.clock(), dryRun: options.dryRun, subresource: options.subresource };
  const writer = options.manager === undefined ? undefined : { manager: options.manager, subresource: options.managerSubresource ?? options.subresource };
  if (!options.systemUpdate) applyUpdateRules(ctx, updated, stored.object, strategyCtx, writer);
  const reservation = !options.systemUpdate && ctx.strategy.beginUpdate ? await ctx.strategy.beginUpdate(updated, stored.object, strategyCtx) : undefined;
  let committed = false;
  try {
    const result = await write(ctx, key, updated, stored, options);
    committed = true;
    if (result.deleted && !options.dryRun) await ctx.strategy.afterDelete?.(stored.object, { now: strategyCtx.now });
    return result;
  } finally {
    await reservation?.settle(committed && !options.dryRun);
  }
}

/**
 * The update rules of upstream's rest.BeforeUpdate: the strategy carries over what may not
 * change, system fields are kept, and the result is validated.
 */
function applyUpdateRules(
  ctx: StoreContext,
  object: KubeObject,
  old: KubeObject,
  strategyCtx: StrategyContext,
  writer: { readonly manager: string; readonly subresource: string } | undefined,
): void {
  const d = ctx.definition;
  const meta = metaOf(object);
  const oldMeta = metaOf(old);
  if (meta.name && meta.name !== oldMeta.name) {
    throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${oldMeta.name})`);
  }
  if (d.namespaced && meta.namespace && meta.namespace !== oldMeta.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  meta.name = oldMeta.name;
  if (d.namespaced) meta.namespace = oldMeta.namespace;
  else delete meta.namespace;
  object.apiVersion = apiVersionOf(d);
  object.kind = d.kind;
  if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation;
  else delete meta.generation;
  ctx.strategy.prepareForUpdate(object, old, strategyCtx);
  if (writer !== undefined) ctx.fields?.trackUpdate(old, object, { ...writer, now: timestamp(strategyCtx.now) });
  if (!meta.uid) meta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  }
  const errors: FieldError[] = [...validateMetadata(ctx, object, old), ...ctx.strategy.validateUpdate(object, old, strategyCtx)];
  if (errors.length > 0) throw invalid(d.kind, d.group, meta.name ?? '', errors);
}

async function write(
  ctx: StoreContext,
  key: string,
  updated: KubeObject,
  stored: { object: KubeObject; modRevision: number },
  options: WriteOptions,
): Promise<UpdateResult> {
  const meta = metaOf(updated);
  meta.resourceVersion = String(stored.modRevision);
  // A no-op update writes nothing and keeps the revision, as upstream.
  if (jsonEqual(updated, stored.object)) return { object: stored.object, deleted: false };
  if (shouldDeleteAfterUpdate(ctx, updated)) {
    if (!options.dryRun) await ctx.storage.delete(key, stored.modRevision);
    return { object: updated, deleted: true };
  }
  if (options.dryRun) return { object: updated, deleted: false };
  const encoding = encodeForStorage(updated);
  const written = await ctx.storage.update(key, encoding.bytes, stored.modRevision);
  meta.resourceVersion = String(written.revision);
  noteWritten(updated, encoding);
  return { object: updated, deleted: false };
}

/** An object marked deleted whose finalizers are all gone and whose grace period is over is removed. */
export function shouldDeleteAfterUpdate(ctx: StoreContext, object: KubeObject): boolean {
  const meta = metaOf(object);
  return (
    !!meta.deletionTimestamp &&
    (meta.finalizers?.length ?? 0) === 0 &&
    !ctx.strategy.hasPendingFinalizers(object) &&
    (meta.deletionGracePeriodSeconds ?? 0) === 0
  );
}

/**
 * PUT of a full object. Creates it when absent and the type allows that (`create` is called);
 * otherwise checks the body's resourceVersion against the stored one.
 */
export async function replaceObject(
  ctx: StoreContext,
  namespace: string,
  name: string,
  body: KubeObject,
  options: WriteOptions,
  create: () => Promise<KubeObject>,
): Promise<UpdateResult & { created: boolean }> {
  const bodyMeta = metaOf(body);
  if (bodyMeta.name && bodyMeta.name !== name) {
    throw badRequest(`the name of the object (${bodyMeta.name}) does not match the name on the URL (${name})`);
  }
  const mayCreate = ctx.strategy.allowCreateOnUpdate && options.subresource === '';
  // Where a PUT cannot create, the cache's word that the object exists saves a storage read:
  // guaranteedUpdate confirms with the store whatever the cache's object gets wrong. Where it can,
  // an object deleted behind the cache must be created, so the store decides.
  const cachedExists = !mayCreate && cachedGuess(ctx, objectKey(ctx, namespace, name)) !== undefined;
  const exists = cachedExists || (await readStored(ctx, namespace, name)) !== undefined;
  if (!exists) {
    if (!mayCreate) throw notFound(refOf(ctx, name));
    return { object: await create(), deleted: false, created: true };
  }
  const expected = bodyMeta.resourceVersion ?? '';
  if (expected === '' && !ctx.strategy.allowUnconditionalUpdate) {
    const d = ctx.definition;
    throw invalid(d.kind, d.group, name, [
      { type: 'FieldValueInvalid', field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' },
    ]);
  }
  const result = await guaranteedUpdate(
    ctx,
    namespace,
    name,
    () => structuredClone(body),
    { ...options, retryOnConflict: expected === '' },
  );
  return { ...result, created: false };
}
