/**
 * The `yaml` package, required on first use instead of imported: only YAML request bodies need
 * it, and compiling this large library cost every server start about 10 ms. Loaded once and kept:
 * resolving it again (createRequire and require's lookup) cost ~90 µs a call.
 */
import { createRequire } from 'node:module';

export type YamlLibrary = typeof import('yaml');

let loaded: YamlLibrary | undefined;

/** Loads the parser (synchronously: codecs decode synchronously). */
export function loadYamlLibrary(): YamlLibrary {
  return (loaded ??= createRequire(import.meta.url)('yaml') as YamlLibrary);
}
