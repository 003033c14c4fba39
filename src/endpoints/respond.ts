/**
 * Writing resource responses: one object, a list streamed item by item, with the encoding the
 * client asked for. Objects from the watch cache carry a memo of their encodings so each stored
 * revision is serialized once however many clients read it.
 */
import { gzipSync } from 'node:zlib';
import { stringify as yamlStringify } from 'yaml';
import { notAcceptable } from '../api/errors.js';
import type { RequestContext } from '../server/request-context.js';
import { canonicalOrder, type KubeObject } from '../registry/object.js';

export type OutputFormat = 'json' | 'yaml';

export interface Negotiated {
  readonly format: OutputFormat;
  readonly pretty: boolean;
}

const JSON_TYPE = 'application/json';
const YAML_TYPE = 'application/yaml';

/** Picks the response encoding from Accept; 406 when nothing acceptable is supported. */
export function negotiate(ctx: RequestContext): Negotiated {
  const accept = (ctx.req.headers['accept'] as string | undefined) ?? '';
  const pretty = ctx.query.get('pretty') === 'true' || ctx.query.get('pretty') === '1';
  if (accept.trim() === '') return { format: 'json', pretty };
  const ranges = accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const as = params.find((p) => p.startsWith('as='))?.slice(3);
    return { type: type.toLowerCase(), q: Number.isNaN(q) ? 0 : q, as };
  });
  ranges.sort((a, b) => b.q - a.q);
  for (const r of ranges) {
    if (r.q <= 0 || r.as !== undefined) continue;
    if (r.type === JSON_TYPE || r.type === '*/*' || r.type === 'application/*') return { format: 'json', pretty };
    if (r.type === YAML_TYPE) return { format: 'yaml', pretty };
  }
  throw notAcceptable(`only the following media types are accepted: ${JSON_TYPE}, ${YAML_TYPE}`);
}

function contentType(format: OutputFormat): string {
  return format === 'yaml' ? YAML_TYPE : JSON_TYPE;
}

/** Upstream compresses only bodies above this size; small ones cost more to compress than to send. */
const GZIP_THRESHOLD = 128 * 1024;

function setCommonHeaders(ctx: RequestContext, status: number, format: OutputFormat | { contentType: string }): void {
  const res = ctx.res;
  res.statusCode = status;
  res.setHeader('Content-Type', typeof format === 'string' ? contentType(format) : format.contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  if (ctx.warnings.length > 0) res.setHeader('Warning', ctx.warnings);
}

function wantsGzip(ctx: RequestContext): boolean {
  const ae = ctx.req.headers['accept-encoding'];
  return typeof ae === 'string' && /\bgzip\b/.test(ae);
}

/**
 * Sends a complete body, compressed when large and the client accepts gzip. `format` names the
 * encoding, or gives the exact Content-Type (discovery's parameterized media types).
 */
export function sendBody(ctx: RequestContext, status: number, format: OutputFormat | { contentType: string }, body: Buffer): void {
  setCommonHeaders(ctx, status, format);
  if (body.length > GZIP_THRESHOLD && wantsGzip(ctx)) {
    body = gzipSync(body);
    ctx.res.setHeader('Content-Encoding', 'gzip');
  }
  ctx.res.setHeader('Content-Length', body.length);
  ctx.res.end(body);
}

/** Serializes any value in the negotiated format. */
export function encodeValue(value: unknown, negotiated: Negotiated): Buffer {
  if (negotiated.format === 'yaml') return Buffer.from(yamlStringify(value, { lineWidth: 0 }));
  return Buffer.from(negotiated.pretty ? JSON.stringify(value, null, 2) + '\n' : JSON.stringify(value));
}

/** Writes one object (a response to get, create, update, patch, delete). */
export function writeObject(ctx: RequestContext, status: number, object: unknown, negotiated = negotiate(ctx)): void {
  const value = isKubeObject(object) ? canonicalOrder(object) : object;
  sendBody(ctx, status, negotiated.format, encodeValue(value, negotiated));
}

function isKubeObject(value: unknown): value is KubeObject {
  return typeof value === 'object' && value !== null && 'metadata' in value;
}

const encoder = new TextEncoder();

/**
 * The compact JSON of an object as a list item (upstream omits kind and apiVersion of items of
 * built-in lists), memoized in the entry's encodings.
 */
export function listItemJson(object: KubeObject, encodings: Map<string, Uint8Array>): Uint8Array {
  let bytes = encodings.get('json-item');
  if (!bytes) {
    const { kind: _k, apiVersion: _a, ...rest } = canonicalOrder(object);
    bytes = encoder.encode(JSON.stringify(rest));
    encodings.set('json-item', bytes);
  }
  return bytes;
}

/** The compact JSON of a whole object, memoized in the entry's encodings. */
export function objectJson(object: KubeObject, encodings: Map<string, Uint8Array>): Uint8Array {
  let bytes = encodings.get('json');
  if (!bytes) {
    bytes = encoder.encode(JSON.stringify(canonicalOrder(object)));
    encodings.set('json', bytes);
  }
  return bytes;
}
