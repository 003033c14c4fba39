/**
 * Which codec reads a request body, from its Content-Type, as upstream decides: no Content-Type
 * means the preferred codec (JSON); parameters such as `charset` are allowed; an unknown or
 * malformed type is 415 UnsupportedMediaType listing the types on offer.
 */
import { ApiError } from '../api/errors.js';
import type { Codec, CodecRegistry } from './codec.js';
import { parseContentType } from './media-type.js';

/** Upstream's 415 message: `the body of the request was in an unknown format - accepted media types include: ...`. */
export function unsupportedMediaTypeError(accepted: readonly string[]): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/**
 * The codec for a request body with this Content-Type. Throws a 415 ApiError when no codec of the
 * registry reads it.
 */
export function requestCodec(contentType: string | undefined, registry: CodecRegistry): Codec {
  if (contentType === undefined || contentType === '') return registry.preferred;
  let byHeader = codecsByHeader.get(registry);
  const known = byHeader?.get(contentType);
  if (known !== undefined) return known;
  const parsed = parseContentType(contentType);
  const codec = parsed && registry.lookup(`${parsed.type}/${parsed.subtype}`);
  if (codec === undefined) throw unsupportedMediaTypeError(registry.mediaTypes());
  if (byHeader === undefined) codecsByHeader.set(registry, (byHeader = new Map()));
  if (byHeader.size >= MAX_HEADERS_KEPT) byHeader.clear();
  byHeader.set(contentType, codec);
  return codec;
}

/**
 * The codec each Content-Type header value chose, per registry: clients send the same few values
 * on every write, and parsing one took ~1.5 µs of a create. Only values a codec accepts are kept.
 */
const codecsByHeader = new WeakMap<CodecRegistry, Map<string, Codec>>();
const MAX_HEADERS_KEPT = 64;
