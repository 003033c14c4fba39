/**
 * /openapi/v2 and /openapi/v3 over HTTP. Documents are built on first request and memoized by
 * OpenApiDocuments, and so is each one's gzip form here (kubectl asks for the v2 document, megabytes
 * of Protobuf, on most commands); the ETag lets clients revalidate instead of downloading again.
 */
import type { Handler, RequestContext } from '../server/request-context.js';
import { setCommonHeaders } from '../server/write-response.js';
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

/** A representation of an OpenAPI document a client may ask for by its media subtype. */
interface DocumentForm {
  readonly subtype: string;
  readonly contentType: string;
}

/**
 * The forms of /openapi/v2, in upstream's order of preference: JSON, then gnostic's Protobuf
 * under its old and new names (both answered with the new one).
 */
const V2_FORMS: readonly DocumentForm[] = [
  { subtype: 'json', contentType: 'application/json' },
  { subtype: 'com.github.proto-openapi.spec.v2@v1.0+protobuf', contentType: PROTOBUF_V2 },
  { subtype: 'com.github.proto-openapi.spec.v2.v1.0+protobuf', contentType: PROTOBUF_V2 },
];

/**
 * The forms of a /openapi/v3 group-version document. Upstream also has a Protobuf form, which
 * kubectl and client-go never ask for (they read JSON); a client that asks only for it gets 406
 * rather than JSON it would fail to parse.
 */
const V3_FORMS: readonly DocumentForm[] = [{ subtype: 'json', contentType: 'application/json' }];

/** How long a client may keep a v3 document fetched by its hash: it never changes. */
const IMMUTABLE_MS = 365 * 86_400_000;

/** The first form the Accept header's clauses, most preferred first, take; none → 406. */
function negotiate(accept: string | undefined, forms: readonly DocumentForm[]): DocumentForm {
  for (const clause of parseAccept(accept || '*/*')) {
    if (clause.type !== 'application' && clause.type !== '*') continue;
    const form = forms.find((f) => clause.subtype === f.subtype || clause.subtype === '*');
    if (form !== undefined) return form;
  }
  throw notAcceptable(`only the following media types are accepted: ${forms.map((f) => `application/${f.subtype}`).join(', ')}`);
}

function serve(ctx: RequestContext, doc: ServedDocument, contentType = 'application/json'): Promise<void> {
  ctx.res.setHeader('ETag', `"${doc.hash}"`);
  ctx.res.setHeader('Vary', 'Accept');
  if (ctx.req.headers['if-none-match'] === `"${doc.hash}"`) {
    ctx.res.statusCode = 304;
    setCommonHeaders(ctx);
    ctx.res.end();
    return Promise.resolve();
  }
  return sendBody(ctx, 200, contentType, doc.body, () => gzippedOf(doc));
}

function redirect(ctx: RequestContext, location: string): void {
  ctx.res.statusCode = 301;
  ctx.res.setHeader('Vary', 'Accept');
  ctx.res.setHeader('Location', location);
  setCommonHeaders(ctx);
  ctx.res.end();
}

/** `documents` is async so that the OpenAPI modules load with the first request for them. */
export function openApiHandlers(documents: () => Promise<OpenApiDocuments>): { v2: Handler; v3: Handler } {
  return {
    v2: async (ctx) => {
      const form = negotiate(ctx.req.headers.accept, V2_FORMS);
      const docs = await documents();
      await serve(ctx, form.contentType === PROTOBUF_V2 ? docs.v2Protobuf() : docs.v2(), form.contentType);
    },
    v3: async (ctx) => {
      const path = ctx.info.path.replace(/^\/openapi\/v3\/?/, '');
      if (path === '') return serve(ctx, (await documents()).v3Index());
      negotiate(ctx.req.headers.accept, V3_FORMS);
      const doc = (await documents()).v3(path);
      if (!doc) throw pathNotFound();
      const hash = ctx.query.get('hash');
      if (hash) {
        // The index lists each document by its hash: a stale one is sent to the current URL, and
        // a current one may be kept for good, since that URL's content never changes.
        if (hash !== doc.hash) return redirect(ctx, `/openapi/v3/${path}?hash=${doc.hash}`);
        ctx.res.setHeader('Cache-Control', 'public, immutable');
        ctx.res.setHeader('Expires', new Date(Date.now() + IMMUTABLE_MS).toUTCString());
      }
      await serve(ctx, doc);
    },
  };
}
