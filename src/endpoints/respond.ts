/**
 * Writing resource responses in the representation and encoding the client negotiated: the object
 * itself, a Table, or PartialObjectMetadata(List), in JSON, YAML or any other registered codec.
 * Objects from the watch cache are shared and never change, so their encodings are memoized: each
 * stored revision is serialized once however many clients read it (within a budget, see
 * encoding-memo.ts).
 */
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
import { badRequest, notAcceptable } from '../api/errors.js';
import { apiVersionOf, type ResourceDefinition } from '../registry/catalog/resource-definition.js';
import { canonicalOrder, type KubeObject } from '../registry/object.js';
import { writtenJson } from '../registry/written-json.js';
import type { RequestContext } from '../server/request-context.js';
import { itemLength, type CodecRegistry, type ListItemBytes } from '../serialization/codec.js';
import { escapeLikeGo } from '../serialization/json-encode.js';
import { negotiateOutput, type NegotiatedOutput, type OutputRestrictions } from '../serialization/negotiate.js';
import { prettyRequested } from '../serialization/pretty.js';
import type { EncodingMemo } from './encoding-memo.js';
import { stitchTableJson } from './table/table-json.js';
import { openStream } from '../server/response-stream.js';
import { writeBody } from '../server/write-response.js';
import type { MetaSpelling, MetaVersion } from './metadata-only/meta-group-version.js';
import type { ListMetaInput } from './metadata-only/partial-object-metadata.js';
import type { IncludeObject } from './table/table-types.js';

/** The negotiated output of one request. */
export interface Output extends NegotiatedOutput {
  /** Indented output: asked for in the query, in Accept, or a human's client (upstream's rule). */
  readonly indent: boolean;
}

/** Whether `out` is unindented JSON: what the server's prepared JSON bytes (stored, memoized) are. */
function isCompactJson(out: Output): boolean {
  return out.codec.mediaTypes[0] === 'application/json' && !out.indent;
}

/** Picks the response encoding and representation; 406 NotAcceptable when nothing fits. */
export function negotiate(ctx: RequestContext, codecs: CodecRegistry, restrictions: OutputRestrictions = {}): Output {
  const accept = ctx.req.headers['accept'] as string | undefined;
  const out = negotiateOutput(accept, codecs, restrictions);
  const userAgent = ctx.req.headers['user-agent'] as string | undefined;
  const indent = out.pretty || prettyRequested(ctx.query, userAgent);
  // Field by field, not a spread: the memoized outputs differ in shape (a target or not), and
  // spreading them took longer than the rest of the negotiation.
  return { codec: out.codec, contentType: out.contentType, representation: out.representation, target: out.target, pretty: out.pretty, indent };
}

/**
 * Chunks of a streamed list. Each write larger than the socket's buffer waits for it to drain, so
 * small chunks cost a wait each (64 KiB chunks made a 10,000-item list 80% slower); 1 MiB keeps
 * the waits few while memory stays bounded.
 */
const LIST_CHUNK_BYTES = 1024 * 1024;

/** Upstream compresses only bodies above this size; small ones cost more to compress than to send. */
const GZIP_THRESHOLD = 128 * 1024;

function wantsGzip(ctx: RequestContext): boolean {
  const ae = ctx.req.headers['accept-encoding'];
  return typeof ae === 'string' && /\bgzip\b/.test(ae);
}

/** Compresses on the thread pool (see sendBody). */
export const gzipBody: (body: Uint8Array) => Promise<Buffer> = promisify(gzip);

/**
 * Sends a complete body with the given Content-Type, compressed when large and the client accepts
 * gzip. Compression runs on the thread pool: a body of megabytes (a Table of thousands of rows,
 * the OpenAPI document) compressed here would hold up every other request and watch meanwhile.
 * Resolves once the body is handed to the response; nothing is written to a response that ended
 * in the meantime (a timeout).
 */
export function sendBody(
  ctx: RequestContext,
  status: number,
  contentType: string,
  body: Uint8Array,
  /** The body compressed, for a body sent often (the caller memoizes it); else compressed here. */
  gzipped?: () => Promise<Uint8Array>,
): Promise<void> {
  if (body.length <= GZIP_THRESHOLD || !wantsGzip(ctx)) {
    writeBody(ctx, status, contentType, body);
    return Promise.resolve();
  }
  return (gzipped ? gzipped() : gzipBody(body)).then((compressed) => writeBody(ctx, status, contentType, compressed, GZIPPED));
}

const GZIPPED = { 'Content-Encoding': 'gzip' } as const;

/** Encodes any value with the negotiated codec and sends it. */
export function writeValue(ctx: RequestContext, status: number, value: unknown, out: Output): Promise<void> {
  ctx.audit?.responseObject(value);
  return sendBody(ctx, status, out.contentType, out.codec.encode(value, { pretty: out.indent }));
}

/** The meta.k8s.io or meta.cluster.io spelling, and the version, of `out`'s Table or metadata target. */
export function spellingOf(out: Output): { spelling: MetaSpelling; version: MetaVersion } {
  return {
    spelling: out.target?.group === 'meta.cluster.io' ? 'cluster' : 'k8s',
    version: out.target?.version === 'v1beta1' ? 'v1beta1' : 'v1',
  };
}

/**
 * The Table and metadata-only conversions, loaded on the first request that asks for one: they are
 * many modules (a printer per family of types), and startup should not pay for them.
 */
export function conversions() {
  return Promise.all([import('./table/to-table.js'), import('./metadata-only/partial-object-metadata.js')]).then(([table, meta]) => ({ ...table, ...meta }));
}

export function includeObjectOf(ctx: RequestContext, parse: (value: string | null | undefined) => IncludeObject | undefined): IncludeObject {
  const include = parse(ctx.query.get('includeObject'));
  if (include === undefined) {
    throw badRequest(`Unable to convert to Table as requested: includeObject: Unsupported value: ${JSON.stringify(ctx.query.get('includeObject'))}`);
  }
  return include;
}

/** Writes one object of `definition` in the negotiated representation (get, create, update, patch, delete). */
export async function writeObject(ctx: RequestContext, status: number, object: KubeObject, definition: ResourceDefinition, out: Output): Promise<void> {
  if (out.representation === 'object') {
    // An object just written has its JSON already, in its stored bytes (registry/written-json.ts).
    const json = isCompactJson(out) ? writtenJson(object) : undefined;
    if (json === undefined) return writeValue(ctx, status, canonicalOrder(object), out);
    ctx.audit?.responseObject(canonicalOrder(object));
    return sendBody(ctx, status, out.contentType, json);
  }
  if (out.representation === 'PartialObjectMetadataList') throw notAcceptableFor('PartialObjectMetadataList', 'a single object');
  const { spelling, version } = spellingOf(out);
  const c = await conversions();
  if (out.representation === 'Table') {
    const table = c.toTable(definition, object, { includeObject: includeObjectOf(ctx, c.parseIncludeObject), now: Date.now(), groupVersionSpelling: spelling, version });
    return writeValue(ctx, status, table, out);
  }
  await writeValue(ctx, status, c.toPartialObjectMetadata(object, spelling, version), out);
}

/**
 * Writes a list of `definition` in the negotiated representation. With `memo`, the items are the
 * watch cache's objects, whose encodings it keeps; without, they are fresh, encoded and dropped.
 */
export async function writeList(
  ctx: RequestContext,
  items: readonly KubeObject[],
  listMeta: ListMetaInput & { resourceVersion: string; continue: string },
  definition: ResourceDefinition,
  out: Output,
  memo: EncodingMemo | undefined,
): Promise<void> {
  if (out.representation !== 'object') {
    if (out.representation === 'PartialObjectMetadata') throw notAcceptableFor('PartialObjectMetadata', 'a list');
    const { spelling, version } = spellingOf(out);
    const c = await conversions();
    if (out.representation !== 'Table') return writeValue(ctx, 200, c.toPartialObjectMetadataList(items, listMeta, spelling, version), out);
    const includeObject = includeObjectOf(ctx, c.parseIncludeObject);
    if (includeObject === 'Metadata' && memo && isCompactJson(out)) {
      // kubectl's Table: each row's metadata from its object's kept encoding (see table-json.ts).
      const table = c.toTable(definition, items, { includeObject: 'None', listMeta, now: Date.now(), groupVersionSpelling: spelling, version });
      const key = `table-row:${spelling}:${version}`;
      const rowObject = (i: number) => memo.get(items[i]!, key, () => Buffer.from(escapeLikeGo(JSON.stringify(c.toPartialObjectMetadata(items[i]!, spelling, version)))));
      // The audit event keeps the Table without its rows' objects (built here only when it is kept).
      if (ctx.audit?.keepsResponse) ctx.audit.responseObject(table);
      const stitched = stitchTableJson(table, rowObject, LIST_CHUNK_BYTES);
      if (stitched) return sendChunks(ctx, out, stitched.chunks, stitched.size);
    }
    return writeValue(ctx, 200, c.toTable(definition, items, { includeObject, listMeta, now: Date.now(), groupVersionSpelling: spelling, version }), out);
  }
  const envelope = { kind: definition.listKind, apiVersion: apiVersionOf(definition), metadata: listMeta };
  const whole = () => ({ ...envelope, items: items.map(listItem) });
  const list = out.codec.list;
  if (list === undefined) {
    await writeValue(ctx, 200, whole(), out);
    return;
  }
  // Built whole only for an audit event that keeps the response.
  if (ctx.audit?.keepsResponse) ctx.audit.responseObject(whole());
  // Items come from their memoized encodings and go out in chunks: the list is never built whole.
  const encoded = items.map((object) => listItemBytes(object, list.itemForm, out, memo));
  const size = encoded.reduce((total, bytes) => total + itemLength(bytes), 0);
  await sendChunks(ctx, out, list.encode(envelope, encoded, { pretty: out.indent, chunkBytes: LIST_CHUNK_BYTES }), size);
}

/** Sends a body given in chunks: whole, with its length, when small; else streamed (gzipped when the client asks). */
async function sendChunks(ctx: RequestContext, out: Output, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, size: number): Promise<void> {
  if (size < LIST_CHUNK_BYTES) {
    // A list that fits one chunk goes out as one body with its length, like any other response.
    const parts: Uint8Array[] = [];
    for await (const chunk of chunks) parts.push(chunk);
    await sendBody(ctx, 200, out.contentType, parts.length === 1 ? parts[0]! : Buffer.concat(parts));
    return;
  }
  // Streamed lists are past the gzip threshold by far: only the client decides.
  const gzip = wantsGzip(ctx);
  const stream = openStream(ctx, { contentType: out.contentType, headers: gzip ? { 'Content-Encoding': 'gzip' } : {} });
  for await (const chunk of gzip ? Readable.from(chunks).pipe(createGzip()) : chunks) await stream.write(chunk as Uint8Array);
  stream.end();
}

function notAcceptableFor(kind: string, what: string): Error {
  return notAcceptable(`${kind} cannot be served for ${what}`);
}

/** An object as a list item: upstream omits kind and apiVersion of the items of built-in lists. */
function listItem(object: KubeObject): KubeObject {
  const { kind: _k, apiVersion: _a, ...rest } = canonicalOrder(object);
  return rest;
}

/** An object's encoding in the form `out`'s codec lists items in; memoized for the cache's objects. */
function listItemBytes(object: KubeObject, form: 'item' | 'object', out: Output, memo: EncodingMemo | undefined): ListItemBytes {
  if (form === 'object') return memo ? encodedObject(object, out, memo) : out.codec.encode(canonicalOrder(object));
  if (!memo) return out.codec.encode(listItem(object));
  if (out.codec.mediaTypes[0] === 'application/json') {
    const whole = encodedObject(object, out, memo);
    let shared = jsonItemViews.get(whole);
    if (shared === undefined) jsonItemViews.set(whole, (shared = jsonItemWithin(whole, object) ?? null));
    if (shared) return shared;
  }
  return memo.get(object, `item:${out.codec.mediaTypes[0]}`, () => out.codec.encode(listItem(object)));
}

const OPEN_BRACE = Buffer.from('{');

/**
 * Each memoized JSON encoding's list-item view (null: it has none), made once: a list of 10,000
 * spent ~6 ms making the views again (prefix lookup, compare, subarray). Held weakly by the
 * encoding, so it goes when the memo forgets the encoding.
 */
const jsonItemViews = new WeakMap<Uint8Array, ListItemBytes | null>();

/**
 * A JSON list item as a view of the object's own memoized JSON (`{"kind":…,"apiVersion":…,` cut
 * off, `{` put back), so that a list and a GET of the same object hold one encoding, not two: with
 * two, a list of 10,000 objects and their GETs outgrew the memo's budget and every list encoded
 * every item again. Undefined when the encoding does not start as expected.
 */
function jsonItemWithin(whole: Uint8Array, object: KubeObject): ListItemBytes | undefined {
  if (typeof object.kind !== 'string' || typeof object.apiVersion !== 'string') return undefined;
  const prefix = jsonObjectPrefix(object.kind, object.apiVersion);
  if (whole.length <= prefix.length || Buffer.compare(prefix, whole.subarray(0, prefix.length)) !== 0) return undefined;
  return [OPEN_BRACE, whole.subarray(prefix.length)];
}

const jsonPrefixes = new Map<string, Buffer>();

/** `{"kind":…,"apiVersion":…,`, the start of an object's JSON, kept per kind and version. */
function jsonObjectPrefix(kind: string, apiVersion: string): Buffer {
  const key = `${apiVersion}/${kind}`;
  let prefix = jsonPrefixes.get(key);
  if (prefix === undefined) {
    prefix = Buffer.from(`{"kind":${escapeLikeGo(JSON.stringify(kind))},"apiVersion":${escapeLikeGo(JSON.stringify(apiVersion))},`);
    // Kinds and versions are few (the served types); the bound guards against odd objects.
    if (jsonPrefixes.size < 4096) jsonPrefixes.set(key, prefix);
  }
  return prefix;
}

/** The encoding of a whole object from the watch cache with `out`'s codec, memoized in `memo`. */
export function encodedObject(object: KubeObject, out: Output, memo: EncodingMemo): Uint8Array {
  return memo.get(object, out.codec.mediaTypes[0]!, () => out.codec.encode(canonicalOrder(object)));
}
