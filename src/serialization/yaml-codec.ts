/** The YAML codec: `application/yaml`. Upstream offers no YAML watch stream, so neither do we. */
import { BodyDecodeError } from './codec.js';
import type { Codec, DecodedBody } from './codec.js';
import { YamlSyntaxError, decodeYaml } from './yaml-decode.js';
import { encodeYaml } from './yaml-encode.js';

export class YamlCodec implements Codec {
  readonly mediaTypes = ['application/yaml'] as const;

  /** Throws BodyDecodeError with upstream's `yaml: line N: ...` message. */
  decode(body: Uint8Array): DecodedBody {
    try {
      // The parser is loaded by the first body decoded (see yaml-library.ts).
      return decodeYaml(body);
    } catch (err) {
      if (err instanceof YamlSyntaxError) throw new BodyDecodeError(err.message);
      throw err;
    }
  }

  /** YAML has one form; `pretty` changes nothing, as upstream. */
  encode(value: unknown): Buffer {
    return Buffer.from(encodeYaml(value), 'utf8');
  }
}
