/** GET of one object (or its status subresource, which reads the same object). */
import type { RequestContext } from '../../server/request-context.js';
import { getReadRevision } from '../read-options.js';
import { negotiate, writeObject } from '../respond.js';
import type { RequestScope } from '../scope.js';

export async function handleGet(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs);
  const object = await scope.store.get(scope.namespace, scope.name, getReadRevision(ctx.query), ctx.signal);
  writeObject(ctx, 200, object, scope.definition, out);
}
