/** GET of one object (or its status subresource, which reads the same object). */
import type { KubeObject } from '../../registry/object.js';
import type { RequestContext } from '../../server/request-context.js';
import { getReadRevision, signalFor } from '../read-options.js';
import { encodedObject, negotiate, sendBody, writeObject, type Output } from '../respond.js';
import type { RequestScope } from '../scope.js';

export function handleGet(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs);
  const at = getReadRevision(ctx.query);
  // Most gets are answered from the cache as it is: no turn of the microtask queue spent waiting.
  const now = scope.store.getNow(scope.namespace, scope.name, at);
  if (now !== undefined) return respond(ctx, scope, out, now);
  return scope.store.get(scope.namespace, scope.name, at, signalFor(ctx, at)).then((object) => respond(ctx, scope, out, object));
}

function respond(ctx: RequestContext, scope: RequestScope, out: Output, object: KubeObject): Promise<void> {
  if (out.representation === 'object' && !out.indent) {
    // The object's bytes are shared with every other reader and watcher of this revision.
    ctx.audit?.responseObject(object);
    return sendBody(ctx, 200, out.contentType, encodedObject(object, out, scope.env.encodings));
  }
  return writeObject(ctx, 200, object, scope.definition, out);
}
