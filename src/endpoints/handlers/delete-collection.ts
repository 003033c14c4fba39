/**
 * DELETE of a collection: deletes every object the selectors match, as of a consistent list, and
 * answers with the list of what was deleted (or marked for deletion).
 */
import { isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../registry/object.js';
import type { RequestContext } from '../../server/request-context.js';
import { metaOf } from '../../registry/object.js';
import { negotiate, writeList } from '../respond.js';
import type { RequestScope } from '../scope.js';
import { selectionOf } from '../selectors.js';
import { deleteRequestOf } from './delete.js';
import { refuseUnsafeDeleteCollection } from './unsafe-delete.js';

export async function handleDeleteCollection(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs);
  const workers = scope.env.deleteCollectionWorkers;
  const request = await deleteRequestOf(ctx, scope.env.codecs);
  refuseUnsafeDeleteCollection(request, scope.env);
  const { filter } = selectionOf(ctx.query, scope.definition);
  const page = await scope.store.list({ namespace: scope.namespace, at: { kind: 'consistent' }, ...(filter ? { filter } : {}), signal: ctx.signal });
  const targets = page.items;
  const deleted: KubeObject[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < targets.length) {
      const target = targets[next++]!;
      const meta = metaOf(target);
      try {
        const result = await scope.store.delete(meta.namespace ?? '', meta.name ?? '', { ...request, user: ctx.user, collection: true });
        deleted.push(result.object);
      } catch (err) {
        // Deleted by someone else in the meantime: nothing left to do for it.
        if (!isNotFound(err)) throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, targets.length)) }, worker));
  // The deleted objects are fresh copies, read by nobody else: encoded without the memo.
  await writeList(ctx, deleted, { resourceVersion: String(page.revision), continue: '' }, scope.definition, out, undefined);
}
