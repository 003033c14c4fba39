/** The codecs every endpoint offers today, JSON first (the default). */
import { CodecRegistry } from './codec.js';
import { JsonCodec } from './json-codec.js';
import { YamlCodec } from './yaml-codec.js';

/** A new registry of JSON and YAML, in that order of preference. */
export function standardCodecs(): CodecRegistry {
  return new CodecRegistry([new JsonCodec(), new YamlCodec()]);
}
