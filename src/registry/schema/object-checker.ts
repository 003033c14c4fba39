/**
 * Checks request bodies against named schema definitions. Build one per SchemaSet and keep it:
 * each definition is compiled on first use and the compiled form is reused for every later write.
 */
import { SchemaCompiler } from './compiled-type.js';
import { checkCompiled, type CheckResult } from './check-object.js';
import type { SchemaSet } from './schema-set.js';

export class ObjectChecker {
  readonly #compiler: SchemaCompiler;

  constructor(schemas: SchemaSet) {
    this.#compiler = new SchemaCompiler(schemas);
  }

  /**
   * Checks `value` (parsed JSON) against the definition `definitionName`, e.g.
   * "io.k8s.api.core.v1.Pod". Does not modify `value`.
   * @throws Error when the definition is unknown (a catalog/schema mismatch, a bug).
   */
  checkObject(definitionName: string, value: unknown): CheckResult {
    const type = this.#compiler.definition(definitionName);
    if (!type) throw new Error(`schema: no definition named ${definitionName}`);
    return checkCompiled(type, value);
  }
}
