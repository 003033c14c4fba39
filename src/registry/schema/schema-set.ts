/**
 * A set of named schema definitions with the navigation helpers that patch, apply and validation
 * code need (follow a ref, step into a field or list item).
 */
import { readGeneratedText } from '../catalog/generated-files.js';
import type { SchemaDefinitions, SchemaNode } from './schema-node.js';

/** Definitions by name; one may still be its JSON text, parsed when it is first asked for. */
type StoredDefinitions = Map<string, SchemaNode | string>;

export class SchemaSet {
  #definitions: StoredDefinitions | (() => StoredDefinitions);

  /**
   * Takes `definitions` (a string value is the definition's JSON text), or a function that reads
   * them, called once, when the set is first used.
   */
  constructor(definitions: StoredDefinitions | (() => StoredDefinitions)) {
    this.#definitions = definitions;
  }

  get #loaded(): StoredDefinitions {
    if (typeof this.#definitions === 'function') this.#definitions = this.#definitions();
    return this.#definitions;
  }

  /** The named definition, or undefined. */
  definition(name: string): SchemaNode | undefined {
    const definitions = this.#loaded;
    const stored = definitions.get(name);
    if (typeof stored !== 'string') return stored;
    const node = JSON.parse(stored) as SchemaNode;
    definitions.set(name, node);
    return node;
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
      const target = this.definition(current.ref);
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

/**
 * The built-in definitions, read when the set is first used, each parsed when first asked for:
 * parsing all of schemas.json took 13-15 ms of a start here, and a start uses a handful of its 729
 * definitions (a restart none before it is ready).
 */
export function loadBuiltinSchemas(): SchemaSet {
  return new SchemaSet(() => definitionTexts(readGeneratedText('schemas.json')));
}

/**
 * Each definition's JSON text by name. The generator writes one definition per line, and tsc's
 * copy into dist/ keeps that (indented): `"<name>": <definition>,` between the lines
 * `"definitions": {` and `}`. A scan of the JSON's tokens took as long as parsing it, so the lines
 * are read instead; a file laid out otherwise is parsed whole. A test compares the two readings.
 */
export function definitionTexts(file: string): StoredDefinitions {
  const definitions: StoredDefinitions = new Map();
  const lines = file.split('\n');
  for (let i = lines.findIndex((line) => line.trim() === '"definitions": {') + 1; i > 0 && i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '}') return definitions;
    // A definition's name is a plain JSON string (no quote or backslash), so it ends at the first `": `.
    const nameEnd = line.indexOf('": ') + 1;
    const value = line.slice(nameEnd + 2, line.endsWith(',') ? -1 : undefined);
    // Each definition is an object; one whose line ends before its `}` is laid out on several lines.
    if (!line.startsWith('"') || nameEnd === 0 || !value.startsWith('{') || !value.endsWith('}')) break;
    definitions.set(JSON.parse(line.slice(0, nameEnd)) as string, value);
  }
  const parsed = JSON.parse(file) as { definitions: Record<string, SchemaNode> };
  return new Map(Object.entries(parsed.definitions));
}
