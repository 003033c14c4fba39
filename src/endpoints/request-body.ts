/**
 * Reading a request body: bounded in size (upstream's 3 MiB), decoded from JSON or YAML, with
 * duplicate and unknown fields handled by the fieldValidation level (rule 10).
 */
import { parseDocument } from 'yaml';
import { ApiError, badRequest, tooLarge, unsupportedMediaType } from '../api/errors.js';
import type { RequestContext } from '../server/request-context.js';
import type { FieldValidation } from './query-flags.js';

/** Upstream's limit for a request body. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** Reads the whole body, failing with 413 past the limit (the rest is not buffered). */
export async function readBody(ctx: RequestContext, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(ctx.req.headers['content-length'] ?? '0');
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** The media type of the body, without parameters. */
export function bodyMediaType(ctx: RequestContext): string {
  const raw = (ctx.req.headers['content-type'] as string | undefined) ?? '';
  return raw.split(';')[0]!.trim().toLowerCase();
}

export interface DecodedBody {
  readonly value: unknown;
  /** Paths of keys that appeared more than once (upstream: `duplicate field "x"`). */
  readonly duplicates: readonly string[];
}

/** Parses JSON or YAML bytes; 400 for bytes that are not a document of that format. */
export function parseDocumentBytes(bytes: Buffer, mediaType: string, what: string): DecodedBody {
  if (mediaType === 'application/yaml' || mediaType.endsWith('+yaml')) return parseYaml(bytes, what);
  if (mediaType === '' || mediaType === 'application/json' || mediaType.endsWith('+json')) return parseJson(bytes, what);
  throw unsupportedMediaType(mediaType);
}

function parseJson(bytes: Buffer, what: string): DecodedBody {
  const text = bytes.toString('utf8');
  try {
    return { value: JSON.parse(text), duplicates: findDuplicateKeys(text) };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw badRequest(`${what}: json parse error: ${(err as Error).message}`);
  }
}

function parseYaml(bytes: Buffer, what: string): DecodedBody {
  const doc = parseDocument(bytes.toString('utf8'), { uniqueKeys: false });
  if (doc.errors.length > 0) throw badRequest(`${what}: yaml parse error: ${doc.errors[0]!.message}`);
  return { value: doc.toJS(), duplicates: [] };
}

/**
 * Finds keys repeated within one JSON object, as dotted paths. A single pass over the text that
 * only tracks keys per open object; the common case (no duplicates) allocates little.
 */
export function findDuplicateKeys(text: string): string[] {
  const duplicates: string[] = [];
  type Frame = { keys: Set<string> | undefined; path: string; isArray: boolean; index: number; pendingKey: string | undefined };
  const stack: Frame[] = [];
  let i = 0;
  const n = text.length;
  const childPath = (frame: Frame): string => {
    if (frame.isArray) return `${frame.path}[${frame.index}]`;
    const key = frame.pendingKey ?? '';
    return frame.path === '' ? key : `${frame.path}.${key}`;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < n && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      const top = stack[stack.length - 1];
      let k = j + 1;
      while (k < n && (text[k] === ' ' || text[k] === '\n' || text[k] === '\r' || text[k] === '\t')) k++;
      if (top && !top.isArray && text[k] === ':') {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        top.keys ??= new Set();
        if (top.keys.has(key)) duplicates.push(top.path === '' ? key : `${top.path}.${key}`);
        top.keys.add(key);
        top.pendingKey = key;
      }
      i = j + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const parent = stack[stack.length - 1];
      const path = parent ? childPath(parent) : '';
      stack.push({ keys: undefined, path, isArray: c === 0x5b, index: 0, pendingKey: undefined });
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.isArray) top.index++;
    }
    i++;
  }
  return duplicates;
}

/**
 * Applies the fieldValidation level to the problems found in a body: Strict fails with 400 listing
 * every one, Warn adds a Warning per problem, Ignore drops them.
 */
export function applyFieldValidation(
  ctx: RequestContext,
  level: FieldValidation,
  problems: readonly string[],
  strictPrefix: string,
): void {
  if (problems.length === 0 || level === 'Ignore') return;
  if (level === 'Strict') throw badRequest(`${strictPrefix}strict decoding error: ${problems.join(', ')}`);
  for (const p of problems) ctx.warnings.push(`299 - ${JSON.stringify(p)}`);
}
