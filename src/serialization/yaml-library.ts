/**
 * The `yaml` package, required on first use instead of imported: only YAML request bodies need
 * it, and compiling this large library cost every server start about 10 ms. YamlCodec holds the
 * loaded module for its owner.
 */
import { createRequire } from 'node:module';

export type YamlLibrary = typeof import('yaml');

/** Loads the parser (synchronously: codecs decode synchronously). */
export function loadYamlLibrary(): YamlLibrary {
  return createRequire(import.meta.url)('yaml') as YamlLibrary;
}
