/**
 * /openapi/v2 and /openapi/v3 over HTTP. Documents are built on first request and memoized by
 * OpenApiDocuments, and so is each one's gzip form here (kubectl asks for the v2 document, megabytes
 * of Protobuf, on most commands); the ETag lets clients revalidate instead of downloading again.
 */
import type { Handler, RequestContext } from '../server/request-context.js';
import type { OpenApiDocuments, ServedDocument } from '../openapi/openapi-documents.js';
import { gzipBody, sendBody } from './respond.js';
import { notAcceptable, pathNotFound } from '../api/errors.js';
import { parseAccept } from '../serialization/media-type.js';

const PROTOBUF_V2 = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** Each served document's gzip form, made on the first request that accepts it. */
const gzipped = new WeakMap<ServedDocument, Promise<Uint8Array>>();

/** `doc`'s gzip form: the same promise for every request (exported for its test). */
export function gzippedOf(doc: ServedDocument): Promise<Uint8Array> {
  let compressed = gzipped.get(doc);
  if (compressed === undefined) gzipped.set(doc, (compressed = gzipBody(doc.body)));
  return compressed;
}

/**
 * The forms of /openapi/v2, in upstream's order of preference: JSON, then gnostic's Protobuf
 * under its old and new names (both answered with the new one).
 */
const V2_FORMS = [
  { subtype: 'json', contentType: 'application/json', protobuf: false },
  { subtype: 'com.github.proto-openapi.spec.v2@v1.0+protobuf', contentType: PROTOBUF_V2, protobuf: true },
  { subtype: 'com.github.proto-openapi.spec.v2.v1.0+protobuf', contentType: PROTOBUF_V2, protobuf: true },
] as const;

/** The first form the Accept header's clauses, most preferred first, take; none → 406. */
function negotiateV2(accept: string | undefined): (typeof V2_FORMS)[number] {
  for (const clause of parseAccept(accept || '*/*')) {
    if (clause.type !== 'application' && clause.type !== '*') continue;
    const form = V2_FORMS.find((f) => clause.subtype === f.subtype || clause.subtype === '*');
    if (form !== undefined) return form;
  }
  throw notAcceptable(`only the following media types are accepted: ${V2_FORMS.map((f) => `application/${f.subtype}`).join(', ')}`);
}

function serve(ctx: RequestContext, doc: ServedDocument, contentType = 'application/json'): Promise<void> {
  ctx.res.setHeader('ETag', `"${doc.hash}"`);
  ctx.res.setHeader('Vary', 'Accept');
  if (ctx.req.headers['if-none-match'] === `"${doc.hash}"`) {
    ctx.res.statusCode = 304;
    ctx.res.end();
    return Promise.resolve();
  }
  return sendBody(ctx, 200, contentType, doc.body, () => gzippedOf(doc));
}

/** `documents` is async so that the OpenAPI modules load with the first request for them. */
export function openApiHandlers(documents: () => Promise<OpenApiDocuments>): { v2: Handler; v3: Handler } {
  return {
    v2: async (ctx) => {
      const form = negotiateV2(ctx.req.headers.accept);
      const docs = await documents();
      await serve(ctx, form.protobuf ? docs.v2Protobuf() : docs.v2(), form.contentType);
    },
    v3: async (ctx) => {
      const path = ctx.info.path.replace(/^\/openapi\/v3\/?/, '');
      if (path === '') return serve(ctx, (await documents()).v3Index());
      const doc = (await documents()).v3(path);
      if (!doc) throw pathNotFound();
      await serve(ctx, doc);
    },
  };
}
