/**
 * A set of named schema definitions with the navigation helpers that patch, apply and validation
 * code need (follow a ref, step into a field or list item).
 */
import { readGeneratedJson } from '../catalog/generated-files.js';
import type { SchemaDefinitions, SchemaNode } from './schema-node.js';

export class SchemaSet {
  #definitions: SchemaDefinitions | (() => SchemaDefinitions);

  /** `definitions`, or a function that reads them, called once, when the set is first used. */
  constructor(definitions: SchemaDefinitions | (() => SchemaDefinitions)) {
    this.#definitions = definitions;
  }

  get #loaded(): SchemaDefinitions {
    if (typeof this.#definitions === 'function') this.#definitions = this.#definitions();
    return this.#definitions;
  }

  /** The named definition, or undefined. */
  definition(name: string): SchemaNode | undefined {
    return this.#loaded.get(name);
  }

  has(name: string): boolean {
    return this.#loaded.has(name);
  }

  /** All definition names, sorted. */
  names(): string[] {
    return [...this.#loaded.keys()].sort();
  }

  /**
   * Follows `ref` links until a node with its own type.
   * @throws Error when a ref names no definition (the generated data is inconsistent).
   */
  resolve(node: SchemaNode): SchemaNode {
    let current = node;
    for (let depth = 0; current.ref !== undefined; depth++) {
      const target = this.#loaded.get(current.ref);
      if (!target || depth > 32) throw new Error(`schema: cannot resolve ${current.ref}`);
      current = target;
    }
    return current;
  }

  /** The resolved schema of field `name` of an object node, or undefined when the field is unknown. */
  field(node: SchemaNode, name: string): SchemaNode | undefined {
    const resolved = this.resolve(node);
    const field = resolved.properties?.[name];
    if (field) return this.resolve(field);
    const additional = resolved.additionalProperties;
    return typeof additional === 'object' ? this.resolve(additional) : undefined;
  }

  /** The resolved schema of the items of an array node, or undefined. */
  items(node: SchemaNode): SchemaNode | undefined {
    const items = this.resolve(node).items;
    return items ? this.resolve(items) : undefined;
  }

  /** A new set with `more` definitions added (custom resource schemas); later names win. */
  with(more: SchemaDefinitions): SchemaSet {
    return new SchemaSet(new Map([...this.#loaded, ...more]));
  }
}

interface SchemasFile {
  readonly definitions: Readonly<Record<string, SchemaNode>>;
}

/**
 * The built-in definitions, read when first used: about 290 KB of JSON, whose parse took 13-15 ms
 * of a start here (a restart needs none of it before it is ready). Callers keep the result.
 */
export function loadBuiltinSchemas(): SchemaSet {
  return new SchemaSet(() => new Map(Object.entries((readGeneratedJson('schemas.json') as SchemasFile).definitions)));
}
