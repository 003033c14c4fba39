/**
 * A set of field paths, stored as a tree: each node has the path elements that end there (its
 * members) and the elements that lead further (its children). A path to a map is distinct from
 * the paths to its fields: owning `.data` does not own `.data.k`. This is the shape of FieldsV1,
 * the encoding of metadata.managedFields[].fieldsV1, where `{}` marks a member and `".": {}` marks
 * a node that is a member as well as a parent.
 */
import { compareElements, parseElementKey, type FieldPath, type PathElement } from './path-element.js';

interface Child {
  readonly element: PathElement;
  readonly set: FieldSet;
}

export class FieldSet {
  readonly #members = new Map<string, PathElement>();
  readonly #children = new Map<string, Child>();

  static of(paths: Iterable<FieldPath>): FieldSet {
    const set = new FieldSet();
    for (const p of paths) set.insert(p);
    return set;
  }

  insert(path: FieldPath): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.#childFor(path[i]!);
    const last = path[path.length - 1]!;
    node.#members.set(last.key, last);
  }

  #childFor(element: PathElement): FieldSet {
    const key = element.key;
    let child = this.#children.get(key);
    if (!child) {
      child = { element, set: new FieldSet() };
      this.#children.set(key, child);
    }
    return child.set;
  }

  has(path: FieldPath): boolean {
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node; i++) node = node.#children.get(path[i]!.key)?.set;
    return path.length > 0 && node !== undefined && node.#members.has(path[path.length - 1]!.key);
  }

  /** The subtree under `element`, whose paths are relative to it; undefined when there is none. */
  under(element: PathElement): FieldSet | undefined {
    return this.#children.get(element.key)?.set;
  }

  /** Whether `element` itself is a member here. */
  hasMember(element: PathElement): boolean {
    return this.#members.has(element.key);
  }

  isEmpty(): boolean {
    return this.#members.size === 0 && this.#children.size === 0;
  }

  union(other: FieldSet): FieldSet {
    const out = this.copy();
    out.#addAll(other);
    return out;
  }

  #addAll(other: FieldSet): void {
    for (const [k, e] of other.#members) this.#members.set(k, e);
    for (const [k, c] of other.#children) {
      const mine = this.#children.get(k);
      if (mine) mine.set.#addAll(c.set);
      else this.#children.set(k, { element: c.element, set: c.set.copy() });
    }
  }

  copy(): FieldSet {
    const out = new FieldSet();
    for (const [k, e] of this.#members) out.#members.set(k, e);
    for (const [k, c] of this.#children) out.#children.set(k, { element: c.element, set: c.set.copy() });
    return out;
  }

  /** The paths of this set that are not in `other`. */
  difference(other: FieldSet): FieldSet {
    return this.#subtract(other, false);
  }

  /** The paths of this set that neither are a member of `other` nor lie under one. */
  withoutTrees(other: FieldSet): FieldSet {
    return this.#subtract(other, true);
  }

  #subtract(other: FieldSet, dropTrees: boolean): FieldSet {
    const out = new FieldSet();
    for (const [k, e] of this.#members) if (!other.#members.has(k)) out.#members.set(k, e);
    for (const [k, c] of this.#children) {
      if (dropTrees && other.#members.has(k)) continue;
      const theirs = other.#children.get(k);
      const rest = theirs ? c.set.#subtract(theirs.set, dropTrees) : c.set.copy();
      if (!rest.isEmpty()) out.#children.set(k, { element: c.element, set: rest });
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, e] of this.#members) if (other.#members.has(k)) out.#members.set(k, e);
    for (const [k, c] of this.#children) {
      const theirs = other.#children.get(k);
      if (!theirs) continue;
      const both = c.set.intersection(theirs.set);
      if (!both.isEmpty()) out.#children.set(k, { element: c.element, set: both });
    }
    return out;
  }

  /** Every path of the set, in the order of their elements (a parent before its children). */
  paths(): FieldPath[] {
    const out: FieldPath[] = [];
    this.#collect([], out);
    return out;
  }

  #collect(prefix: PathElement[], out: FieldPath[]): void {
    for (const { element, member, child } of this.#sortedEntries()) {
      if (member) out.push([...prefix, element]);
      if (child) child.#collect([...prefix, element], out);
    }
  }

  #sortedEntries(): Array<{ element: PathElement; member: boolean; child: FieldSet | undefined }> {
    const byKey = new Map<string, { element: PathElement; member: boolean; child: FieldSet | undefined }>();
    for (const [k, e] of this.#members) byKey.set(k, { element: e, member: true, child: undefined });
    for (const [k, c] of this.#children) {
      const entry = byKey.get(k);
      if (entry) entry.child = c.set;
      else byKey.set(k, { element: c.element, member: false, child: c.set });
    }
    return [...byKey.values()].sort((a, b) => compareElements(a.element, b.element));
  }

  /** The FieldsV1 form: a JSON object, members and children in element order. */
  toFieldsV1(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const { element, member, child } of this.#sortedEntries()) {
      const key = element.key;
      if (!child || child.isEmpty()) out[key] = {};
      else out[key] = member ? { '.': {}, ...child.toFieldsV1() } : child.toFieldsV1();
    }
    return out;
  }

  /**
   * Reads a FieldsV1 object. Throws an Error naming the first thing that is not FieldsV1 (a value
   * that is not an object, a key that is no path element).
   */
  static fromFieldsV1(fields: unknown): FieldSet {
    const set = new FieldSet();
    set.#read(fields);
    return set;
  }

  #read(fields: unknown): void {
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new Error('expected an object');
    for (const [key, value] of Object.entries(fields)) {
      if (key === '.') continue;
      const element = parseElementKey(key);
      if (!element) throw new Error(`unknown path element ${JSON.stringify(key)}`);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`expected an object at ${JSON.stringify(key)}`);
      const entries = Object.keys(value);
      if (entries.length === 0 || Object.hasOwn(value, '.')) this.#members.set(element.key, element);
      if (entries.some((k) => k !== '.')) this.#childFor(element).#read(value);
    }
  }
}
