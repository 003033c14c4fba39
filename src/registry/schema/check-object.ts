/**
 * Walks a decoded JSON object against a compiled schema the way upstream's Go decoder
 * (sigs.k8s.io/json, strict mode) treats it: it lists unknown fields with the decoder's paths
 * (`spec.containers[0].foo`), removes them, and finds the type errors the decoder would report.
 */
import { base64Error, quantityError, timeError } from './custom-decoders.js';
import type { CompiledType, IntegerType, StructType } from './compiled-type.js';
import { isPlainObject } from '../../util/plain-object.js';

/** A value that does not fit its field's type, as Go's json.UnmarshalTypeError describes it. */
export interface FieldTypeError {
  /** Path in the strict-decoding form, e.g. "spec.containers[0].image". */
  readonly path: string;
  /** The JSON value's kind as Go names it: "number", "number 1.5", "string", "bool", "array", "object". */
  readonly value: string;
  /** Go type of the field, e.g. "string", "int32", "[]v1.Container", "v1.PodSpec". */
  readonly goType: string;
  /** Go struct holding the field, "" at the top level. */
  readonly struct: string;
  /** Go's field path: JSON names from the root joined by dots, without list indexes or map keys. */
  readonly field: string;
  /** The decoder's message, e.g. `json: cannot unmarshal number into Go struct field ConfigMap.data of type string`. */
  readonly message: string;
}

/** The outcome of checking one object. */
export interface CheckResult {
  /** Unknown field paths in document order, at most 100 (upstream's cap), e.g. ["metadata.bogus", "extra"]. */
  readonly unknownFields: readonly string[];
  /** The input with every unknown field removed; the input itself when nothing was removed (never mutated). */
  readonly pruned: unknown;
  /** Every type mismatch found, in document order. */
  readonly typeErrors: readonly FieldTypeError[];
  /**
   * The error upstream's decoder returns, if any: a self-decoding type's failure (Quantity, Time,
   * IntOrString) wins, else the first type mismatch. Wrap it with `cannotBeHandledMessage`.
   */
  readonly decodeError?: string;
}

const MAX_UNKNOWN_FIELDS = 100;

/**
 * Checks `value` against `type`. Pure: the input is not modified.
 */
export function checkCompiled(type: CompiledType, value: unknown): CheckResult {
  const walk = new Walk();
  const pruned = walk.value(type, value);
  const first = walk.fatal ?? walk.typeErrors[0]?.message;
  return { unknownFields: walk.unknownFields, pruned, typeErrors: walk.typeErrors, ...(first !== undefined && { decodeError: first }) };
}

/** Mutable state of one walk; the stacks mirror the decoder's error context. */
class Walk {
  readonly unknownFields: string[] = [];
  readonly typeErrors: FieldTypeError[] = [];
  fatal: string | undefined;
  /** Strict path segments: "spec", ".containers", "[0]". */
  readonly #path: string[] = [];
  /** JSON field names of struct fields only (Go's errorContext.FieldStack). */
  readonly #fields: string[] = [];
  #struct = '';

  value(type: CompiledType, value: unknown): unknown {
    if (value === null) return value; // null leaves any Go field at its zero value
    switch (type.kind) {
      case 'struct': return this.#struct_(type, value);
      case 'map': return this.#map(type.values, type.goType, value);
      case 'array': return this.#array(type.items, type.goType, value);
      case 'string': if (typeof value !== 'string') this.#mismatch(value, type.goType); return value;
      case 'bool': if (typeof value !== 'boolean') this.#mismatch(value, type.goType); return value;
      case 'float': if (typeof value !== 'number') this.#mismatch(value, type.goType); return value;
      case 'int': this.#integer(type, value); return value;
      case 'bytes': this.#bytes(value); return value;
      case 'int-or-string': this.#intOrString(value); return value;
      case 'quantity': this.#fail(quantityError(value)); return value;
      case 'time':
      case 'micro-time': this.#time(value, type.kind === 'micro-time'); return value;
      case 'any': return value;
    }
  }

  #struct_(type: StructType, value: unknown): unknown {
    if (!isPlainObject(value)) {
      this.#mismatch(value, type.goType);
      return value;
    }
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const field = type.fields.get(key);
      const child = value[key];
      if (field === undefined) {
        if (type.preserveUnknownFields) continue;
        this.#unknown(key);
        out ??= { ...value };
        delete out[key];
        continue;
      }
      const savedStruct = this.#struct;
      this.#path.push(this.#path.length === 0 ? key : `.${key}`);
      this.#fields.push(key);
      this.#struct = type.structName;
      const next = this.value(field, child);
      this.#struct = savedStruct;
      this.#fields.pop();
      this.#path.pop();
      if (next !== child) (out ??= { ...value })[key] = next;
    }
    return out ?? value;
  }

  #map(values: CompiledType, goType: string, value: unknown): unknown {
    if (!isPlainObject(value)) {
      this.#mismatch(value, goType);
      return value;
    }
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const child = value[key];
      this.#path.push(this.#path.length === 0 ? key : `.${key}`);
      const next = this.value(values, child);
      this.#path.pop();
      if (next !== child) (out ??= { ...value })[key] = next;
    }
    return out ?? value;
  }

  #array(items: CompiledType, goType: string, value: unknown): unknown {
    if (!Array.isArray(value)) {
      this.#mismatch(value, goType);
      return value;
    }
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      this.#path.push(`[${i}]`);
      const next = this.value(items, child);
      this.#path.pop();
      if (next !== child) (out ??= [...value])[i] = next;
    }
    return out ?? value;
  }

  #integer(type: IntegerType, value: unknown): void {
    if (typeof value !== 'number') return this.#mismatch(value, type.goType);
    if (!Number.isInteger(value) || value < type.min || value > type.max) this.#mismatch(value, type.goType);
  }

  #bytes(value: unknown): void {
    if (typeof value === 'string') {
      const error = base64Error(value);
      if (error !== undefined) this.#saved(value, '[]uint8', error);
    } else if (!Array.isArray(value)) {
      this.#mismatch(value, '[]uint8');
    }
  }

  /** IntOrString decodes a number into an int32 itself, so its failures end the decode. */
  #intOrString(value: unknown): void {
    if (typeof value === 'string') return;
    if (typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value <= 2 ** 31 - 1) return;
    this.fatal ??= this.#typeError(value, 'int32').message;
  }

  /** Time and MicroTime read a JSON string themselves, then parse it; both failures end the decode. */
  #time(value: unknown, micro: boolean): void {
    if (typeof value !== 'string') {
      this.fatal ??= this.#typeError(value, 'string').message;
      return;
    }
    this.#fail(timeError(value, micro));
  }

  #fail(error: string | undefined): void {
    if (error !== undefined) this.fatal ??= error;
  }

  #unknown(key: string): void {
    if (this.unknownFields.length >= MAX_UNKNOWN_FIELDS) return;
    this.unknownFields.push(this.#path.length === 0 ? key : `${this.#path.join('')}.${key}`);
  }

  #mismatch(value: unknown, goType: string): void {
    this.typeErrors.push(this.#typeError(value, goType));
  }

  #saved(value: unknown, goType: string, message: string): void {
    this.typeErrors.push({ ...this.#typeError(value, goType), message });
  }

  #typeError(value: unknown, goType: string): FieldTypeError {
    const kind = jsonKind(value, goType);
    const field = this.#fields.join('.');
    const where = this.#struct !== '' || field !== '' ? `Go struct field ${this.#struct}.${field}` : 'Go value';
    return {
      path: this.#path.join(''),
      value: kind,
      goType,
      struct: this.#struct,
      field,
      message: `json: cannot unmarshal ${kind} into ${where} of type ${goType}`,
    };
  }
}

/** Go's description of a JSON value in type errors; numbers bound for integers carry their literal. */
function jsonKind(value: unknown, goType: string): string {
  if (typeof value === 'number') return /^u?int/.test(goType) ? `number ${String(value)}` : 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  return Array.isArray(value) ? 'array' : 'object';
}
