/**
 * GET of a collection: served from the watch cache, one page at a time when a limit is given,
 * streamed to the socket item by item in large writes.
 */
import type { RequestContext } from '../../server/request-context.js';
import { encodeContinue } from '../continue-token.js';
import { listReadOptions } from '../read-options.js';
import { encodeValue, listItemJson, negotiate, sendBody } from '../respond.js';
import type { RequestScope } from '../scope.js';
import { selectionOf } from '../selectors.js';

export async function handleList(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const negotiated = negotiate(ctx);
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
    signal: ctx.signal,
  });
  const metadata: Record<string, unknown> = { resourceVersion: String(page.revision) };
  metadata['continue'] = page.next === undefined ? '' : encodeContinue({ revision: page.revision, start: page.next });
  if (page.next !== undefined && page.remaining !== undefined && filter === undefined) metadata['remainingItemCount'] = page.remaining;
  const apiVersion = d.group === '' ? d.version : `${d.group}/${d.version}`;

  if (negotiated.format !== 'json' || negotiated.pretty) {
    const items = page.items.map((i) => JSON.parse(Buffer.from(listItemJson(i.object, i.encodings)).toString('utf8')) as unknown);
    sendBody(ctx, 200, negotiated.format, encodeValue({ kind: d.listKind, apiVersion, metadata, items }, negotiated));
    return;
  }
  // Items are joined from their memoized encodings; the list is never built as one object.
  const head = Buffer.from(`{"kind":${JSON.stringify(d.listKind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(metadata)},"items":[`);
  const parts: Uint8Array[] = [head];
  let size = head.length;
  page.items.forEach((item, index) => {
    const bytes = listItemJson(item.object, item.encodings);
    if (index > 0) { parts.push(COMMA); size += 1; }
    parts.push(bytes);
    size += bytes.length;
  });
  parts.push(TAIL);
  size += TAIL.length;
  sendBody(ctx, 200, 'json', Buffer.concat(parts, size));
}

const COMMA = Buffer.from(',');
const TAIL = Buffer.from(']}');
