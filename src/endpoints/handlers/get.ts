/** GET of one object (or its status subresource, which reads the same object). */
import type { RequestContext } from '../../server/request-context.js';
import { getReadRevision, signalFor } from '../read-options.js';
import { encodedObject, negotiate, sendBody, writeObject } from '../respond.js';
import type { RequestScope } from '../scope.js';

export async function handleGet(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs);
  const at = getReadRevision(ctx.query);
  const object = await scope.store.get(scope.namespace, scope.name, at, signalFor(ctx, at));
  if (out.representation === 'object' && !out.indent) {
    // The object's bytes are shared with every other reader and watcher of this revision.
    await sendBody(ctx, 200, out.contentType, encodedObject(object, out, scope.env.encodings));
    return;
  }
  await writeObject(ctx, 200, object, scope.definition, out);
}
