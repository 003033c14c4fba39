/**
 * delete: two-phase as upstream. An object that finalizers still hold, or that the strategy gives a
 * grace period, is only marked (deletionTimestamp, deletionGracePeriodSeconds); anything else is
 * removed from storage at once.
 */
import { conflict, fromStorageError, notFound } from '../../api/errors.js';
import { isStorageError } from '../../storage/errors.js';
import { metaOf, timestamp, type KubeObject, type ObjectMeta } from '../object.js';
import type { DeleteRequest } from '../strategy.js';
import type { UserInfo } from '../../auth/user-info.js';
import { objectKey, refOf, type StoreContext } from './store-context.js';
import { guaranteedUpdate, readStored } from './update.js';

export interface DeletePreconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export interface DeleteObjectRequest extends DeleteRequest {
  readonly preconditions?: DeletePreconditions;
  /** The requesting user (deletes through the API, which write admission checks); undefined: the server's own. */
  readonly user?: UserInfo;
  /** One of a deletecollection's deletes, which upstream's admission sees without the object's name. */
  readonly collection?: boolean;
}

export interface DeleteResult {
  /** The object as it is now: marked for deletion, or its last state when removed. */
  readonly object: KubeObject;
  /** True when the object is gone from storage. */
  readonly deleted: boolean;
}

/** Deletes one object. Throws 404 when absent, 409 when a precondition fails, 403 from write admission. */
export async function deleteObject(ctx: StoreContext, namespace: string, name: string, request: DeleteObjectRequest): Promise<DeleteResult> {
  const key = objectKey(ctx, namespace, name);
  for (;;) {
    const stored = await readStored(ctx, namespace, name);
    if (!stored) throw notFound(refOf(ctx, name));
    checkDeletePreconditions(ctx.definition, stored.object, request.preconditions);
    if (request.user) ctx.admission?.checkWrite(refOf(ctx, request.collection ? '' : name));
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
      // Lost to another writer: try again on its version until the delete lands, as guaranteedUpdate does.
      if (isStorageError(err, 'conflict')) continue;
      throw fromStorageError(err, refOf(ctx, name));
    }
  }
}

/**
 * A delete's preconditions, checked as upstream's rest.BeforeDelete words them: against the
 * object's kind (`Operation cannot be fulfilled on Deployment.apps "d": the UID in the
 * precondition ...`), not its resource. Exported for the eviction, which checks them itself.
 */
export function checkDeletePreconditions(kind: { kind: string; group: string }, object: KubeObject, preconditions: DeletePreconditions | undefined): void {
  if (!preconditions) return;
  const meta = metaOf(object);
  const ref = { resource: kind.kind, group: kind.group, name: meta.name ?? '' };
  if (preconditions.uid !== undefined && preconditions.uid !== meta.uid) {
    const why = `the UID in the precondition (${preconditions.uid}) does not match the UID in record (${meta.uid ?? ''}). The object might have been deleted and then recreated`;
    throw conflict(ref, why);
  }
  if (preconditions.resourceVersion !== undefined && preconditions.resourceVersion !== meta.resourceVersion) {
    const why = `the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion ?? ''}). The object might have been modified`;
    throw conflict(ref, why);
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
      checkDeletePreconditions(ctx.definition, current, request.preconditions);
      const meta = metaOf(current);
      const now = ctx.clock();
      if (!meta.deletionTimestamp) {
        meta.deletionTimestamp = timestamp(now + grace * 1000);
        meta.deletionGracePeriodSeconds = grace;
        // Controllers watch generation: being deleted is a change of what they must do.
        if ((meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
        ctx.strategy.prepareForDeletion(current);
      } else if (meta.deletionGracePeriodSeconds !== undefined && grace < meta.deletionGracePeriodSeconds) {
        shortenGracePeriod(meta, grace, now);
      }
      return current;
    },
    { dryRun: request.dryRun, subresource: '', retryOnConflict: true, systemUpdate: true },
  );
  return result;
}

/**
 * A shorter grace period counts from when the deletion began, as upstream's BeforeDelete moves it:
 * the deletionTimestamp goes back by the old period and forward by the new one, but never into the
 * past; a graceful period that has already run out becomes 1 s, so the final delete stays another
 * actor's.
 */
function shortenGracePeriod(meta: ObjectMeta, grace: number, now: number): void {
  const began = Date.parse(meta.deletionTimestamp!) - meta.deletionGracePeriodSeconds! * 1000;
  let at = began + grace * 1000;
  let period = grace;
  if (at < now) {
    at = now;
    if (period !== 0) period = 1;
  }
  meta.deletionTimestamp = timestamp(at);
  meta.deletionGracePeriodSeconds = period;
}
