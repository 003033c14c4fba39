/**
 * delete: two-phase as upstream. An object that finalizers still hold, or that the strategy gives a
 * grace period, is only marked (deletionTimestamp, deletionGracePeriodSeconds); anything else is
 * removed from storage at once.
 */
import { conflict, fromStorageError, notFound } from '../../api/errors.js';
import { isStorageError } from '../../storage/errors.js';
import { metaOf, timestamp, type KubeObject } from '../object.js';
import type { DeleteRequest } from '../strategy.js';
import { objectKey, refOf, type StoreContext } from './store-context.js';
import { guaranteedUpdate, readStored } from './update.js';

export interface DeletePreconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export interface DeleteObjectRequest extends DeleteRequest {
  readonly preconditions?: DeletePreconditions;
}

export interface DeleteResult {
  /** The object as it is now: marked for deletion, or its last state when removed. */
  readonly object: KubeObject;
  /** True when the object is gone from storage. */
  readonly deleted: boolean;
}

const MAX_CONFLICT_RETRIES = 10;

/** Deletes one object. Throws 404 when absent and 409 when a precondition fails. */
export async function deleteObject(ctx: StoreContext, namespace: string, name: string, request: DeleteObjectRequest): Promise<DeleteResult> {
  const key = objectKey(ctx, namespace, name);
  for (let attempt = 0; ; attempt++) {
    const stored = await readStored(ctx, namespace, name);
    if (!stored) throw notFound(refOf(ctx, name));
    checkPreconditions(ctx, stored.object, request.preconditions);
    ctx.strategy.checkDelete?.(stored.object);
    const meta = metaOf(stored.object);
    const grace = ctx.strategy.gracePeriod(stored.object, request);
    const held = (meta.finalizers?.length ?? 0) > 0 || ctx.strategy.hasPendingFinalizers(stored.object);
    if (held || grace > 0) return markDeleted(ctx, namespace, name, grace, request);
    try {
      if (!request.dryRun) {
        const { revision } = await ctx.storage.delete(key, stored.modRevision);
        await ctx.strategy.afterDelete?.(stored.object, { now: ctx.clock() });
        meta.resourceVersion = String(revision);
      }
      return { object: stored.object, deleted: true };
    } catch (err) {
      if (attempt < MAX_CONFLICT_RETRIES && isStorageError(err, 'conflict')) continue;
      throw fromStorageError(err, refOf(ctx, name));
    }
  }
}

function checkPreconditions(ctx: StoreContext, object: KubeObject, preconditions: DeletePreconditions | undefined): void {
  if (!preconditions) return;
  const meta = metaOf(object);
  const ref = refOf(ctx, meta.name ?? '');
  if (preconditions.uid !== undefined && preconditions.uid !== meta.uid) {
    throw conflict(ref, `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (preconditions.resourceVersion !== undefined && preconditions.resourceVersion !== meta.resourceVersion) {
    throw conflict(
      ref,
      `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
    );
  }
}

/**
 * Sets deletionTimestamp (now + grace) once; a later delete may only shorten the grace period.
 * The update path removes the object when nothing holds it any more.
 */
async function markDeleted(ctx: StoreContext, namespace: string, name: string, grace: number, request: DeleteObjectRequest): Promise<DeleteResult> {
  const result = await guaranteedUpdate(
    ctx,
    namespace,
    name,
    (current) => {
      checkPreconditions(ctx, current, request.preconditions);
      const meta = metaOf(current);
      const now = ctx.clock();
      if (!meta.deletionTimestamp) {
        meta.deletionTimestamp = timestamp(now + grace * 1000);
        meta.deletionGracePeriodSeconds = grace;
        ctx.strategy.prepareForDeletion(current);
      } else if (meta.deletionGracePeriodSeconds !== undefined && grace < meta.deletionGracePeriodSeconds) {
        meta.deletionTimestamp = timestamp(now + grace * 1000);
        meta.deletionGracePeriodSeconds = grace;
      }
      return current;
    },
    { dryRun: request.dryRun, subresource: '', retryOnConflict: true, systemUpdate: true },
  );
  return result;
}
