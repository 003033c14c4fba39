/**
 * /openapi/v2 and /openapi/v3 over HTTP. Documents are built on first request and memoized by
 * OpenApiDocuments, and so is each one's gzip form here (kubectl asks for the v2 document, megabytes
 * of JSON, on most commands); the ETag lets clients revalidate instead of downloading again.
 */
import type { Handler, RequestContext } from '../server/request-context.js';
import type { OpenApiDocuments, ServedDocument } from '../openapi/openapi-documents.js';
import { gzipBody, sendBody } from './respond.js';
import { pathNotFound } from '../api/errors.js';

/** Each served document's gzip form, made on the first request that accepts it. */
const gzipped = new WeakMap<ServedDocument, Promise<Uint8Array>>();

/** `doc`'s gzip form: the same promise for every request (exported for its test). */
export function gzippedOf(doc: ServedDocument): Promise<Uint8Array> {
  let compressed = gzipped.get(doc);
  if (compressed === undefined) gzipped.set(doc, (compressed = gzipBody(doc.body)));
  return compressed;
}

function serve(ctx: RequestContext, doc: ServedDocument): Promise<void> {
  ctx.res.setHeader('ETag', `"${doc.hash}"`);
  ctx.res.setHeader('Vary', 'Accept');
  if (ctx.req.headers['if-none-match'] === `"${doc.hash}"`) {
    ctx.res.statusCode = 304;
    ctx.res.end();
    return Promise.resolve();
  }
  return sendBody(ctx, 200, 'application/json', doc.body, () => gzippedOf(doc));
}

/** `documents` is async so that the OpenAPI modules load with the first request for them. */
export function openApiHandlers(documents: () => Promise<OpenApiDocuments>): { v2: Handler; v3: Handler } {
  return {
    v2: async (ctx) => serve(ctx, (await documents()).v2()),
    v3: async (ctx) => {
      const path = ctx.info.path.replace(/^\/openapi\/v3\/?/, '');
      if (path === '') return serve(ctx, (await documents()).v3Index());
      const doc = (await documents()).v3(path);
      if (!doc) throw pathNotFound();
      await serve(ctx, doc);
    },
  };
}
