/**
 * GET of a collection: served from the watch cache, one page at a time when a limit is given.
 */
import type { RequestContext } from '../../server/request-context.js';
import { ApiError, continueExpired } from '../../api/errors.js';
import { encodeContinue, LATEST } from '../continue-token.js';
import { listReadOptions, signalFor } from '../read-options.js';
import { negotiate, writeList } from '../respond.js';
import type { RequestScope } from '../scope.js';
import { selectionOf } from '../selectors.js';
import { UNSAFE_DELETE_GATE } from './unsafe-delete.js';

export async function handleList(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs);
  const options = listReadOptions(ctx.query);
  const { filter, fields } = selectionOf(ctx.query, scope.definition);
  const d = scope.definition;
  // A field selector on metadata.namespace narrows a cluster-wide list to one namespace.
  const namespace = scope.namespace || (d.namespaced ? fields.exactValue('metadata.namespace') ?? '' : '');
  const continueFrom = options.continueFrom;
  const page = await scope.store
    .list({
      namespace,
      at: options.at,
      ...(continueFrom ? { start: continueFrom.start } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(filter ? { filter } : {}),
      ...(signalFor(ctx, options.at) ? { signal: ctx.signal } : {}),
      ...(scope.env.featureGates?.[UNSAFE_DELETE_GATE] === true ? { reportCorrupt: true } : {}),
    })
    .catch((err: unknown) => {
      // The list's revision was compacted away: offer to go on from the same key at the latest one.
      if (continueFrom && err instanceof ApiError && err.code === 410) throw continueExpired(encodeContinue({ revision: LATEST, start: continueFrom.start }));
      throw err;
    });
  const listMeta: { resourceVersion: string; continue: string; remainingItemCount?: number } = {
    resourceVersion: String(page.revision),
    continue: page.next === undefined ? '' : encodeContinue({ revision: page.revision, start: page.next }),
  };
  if (page.next !== undefined && page.remaining !== undefined && filter === undefined) listMeta.remainingItemCount = page.remaining;
  await writeList(ctx, page.items, listMeta, d, out, scope.env.encodings);
}
