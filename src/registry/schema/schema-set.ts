/**
 * A set of named schema definitions with the navigation helpers that patch, apply and validation
 * code need (follow a ref, step into a field or list item).
 */
import { readGeneratedJson } from '../catalog/generated-files.js';
import type { SchemaDefinitions, SchemaNode } from './schema-node.js';

export class SchemaSet {
  readonly #definitions: SchemaDefinitions;

  constructor(definitions: SchemaDefinitions) {
    this.#definitions = definitions;
  }

  /** The named definition, or undefined. */
  definition(name: string): SchemaNode | undefined {
    return this.#definitions.get(name);
  }

  has(name: string): boolean {
    return this.#definitions.has(name);
  }

  /** All definition names, sorted. */
  names(): string[] {
    return [...this.#definitions.keys()].sort();
  }

  /**
   * Follows `ref` links until a node with its own type.
   * @throws Error when a ref names no definition (the generated data is inconsistent).
   */
  resolve(node: SchemaNode): SchemaNode {
    let current = node;
    for (let depth = 0; current.ref !== undefined; depth++) {
      const target = this.#definitions.get(current.ref);
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
    return new SchemaSet(new Map([...this.#definitions, ...more]));
  }
}

interface SchemasFile {
  readonly definitions: Readonly<Record<string, SchemaNode>>;
}

/**
 * Loads the built-in definitions (about 250 KB of JSON; a few milliseconds). Callers load once and
 * keep the result; nothing is read at import time.
 */
export function loadBuiltinSchemas(): SchemaSet {
  const file = readGeneratedJson('schemas.json') as SchemasFile;
  return new SchemaSet(new Map(Object.entries(file.definitions)));
}
