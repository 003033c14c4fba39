/**
 * Reading a request body, bounded in size (upstream's 3 MiB): the rest is not buffered.
 */
import { tooLarge } from '../api/errors.js';
import type { RequestContext } from '../server/request-context.js';

/** Upstream's limit for a request body. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** Reads the whole body, failing with 413 past the limit. */
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

/** The request's Content-Type header, as sent. */
export function contentTypeOf(ctx: RequestContext): string | undefined {
  return ctx.req.headers['content-type'] as string | undefined;
}
