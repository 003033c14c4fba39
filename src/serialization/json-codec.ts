/** The JSON codec: `application/json`, the default, streamable for watches. */
import { BodyDecodeError } from './codec.js';
import type { Codec, DecodedBody, EncodeOptions, ListEncoding, StreamFraming } from './codec.js';
import { goQuote } from './go-format.js';
import { JsonSyntaxError, decodeJson } from './json-decode.js';
import { encodeJson } from './json-encode.js';
import { encodeJsonList } from './json-list-encoder.js';
import { frameJsonWatchEvent } from './watch-frame.js';

/** `duplicate field "metadata.name"`, as upstream's strict decoder words it. */
export function duplicateFieldMessage(path: string): string {
  return `duplicate field ${goQuote(path)}`;
}

export class JsonCodec implements Codec {
  readonly mediaTypes = ['application/json'] as const;

  readonly stream: StreamFraming = {
    mediaType: 'application/json;stream=watch',
    frameEvent: frameJsonWatchEvent,
  };

  readonly list: ListEncoding = {
    itemForm: 'item',
    encode: (envelope, items, options) => encodeJsonList(envelope, items, options),
  };

  /** Throws BodyDecodeError with upstream's `couldn't get version/kind; json parse error: ...`. */
  decode(body: Uint8Array): DecodedBody {
    try {
      const { value, duplicateFields } = decodeJson(body);
      return { value, strictErrors: duplicateFields.map(duplicateFieldMessage) };
    } catch (err) {
      if (err instanceof JsonSyntaxError) throw new BodyDecodeError(`couldn't get version/kind; json parse error: ${err.message}`);
      throw err;
    }
  }

  encode(value: unknown, options: EncodeOptions = {}): Buffer {
    return encodeJson(value, options.pretty === true);
  }
}
