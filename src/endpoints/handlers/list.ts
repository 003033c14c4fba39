/**
 * GET of a collection: served from the watch cache, one page at a time when a limit is given.
 */
import type { RequestContext } from '../../server/request-context.js';
import { encodeContinue } from '../continue-token.js';
import { listReadOptions, signalFor } from '../read-options.js';
import { negotiate, writeList } from '../respond.js';
import type { RequestScope } from '../scope.js';
import { selectionOf } from '../selectors.js';

export async function handleList(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs);
  const options = listReadOptions(ctx.query);
  const { filter, fields } = selectionOf(ctx.query, scope.definition);
  const d = scope.definition;
  // A field selector on metadata.namespace narrows a cluster-wide list to one namespace.
  const namespace = scope.namespace || (d.namespaced ? fields.exactValue('metadata.namespace') ?? '' : '');
  const page = await scope.store.list({
    namespace,
    at: options.at,
    ...(options.continueFrom ? { start: options.continueFrom.start } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(filter ? { filter } : {}),
    ...(signalFor(ctx, options.at) ? { signal: ctx.signal } : {}),
  });
  const listMeta: { resourceVersion: string; continue: string; remainingItemCount?: number } = {
    resourceVersion: String(page.revision),
    continue: page.next === undefined ? '' : encodeContinue({ revision: page.revision, start: page.next }),
  };
  if (page.next !== undefined && page.remaining !== undefined && filter === undefined) listMeta.remainingItemCount = page.remaining;
  await writeList(ctx, page.items, listMeta, d, out, scope.env.encodings);
}
