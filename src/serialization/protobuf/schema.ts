/**
 * The compiled form of the generated descriptor: one plan per message, with fields resolved to
 * their message plans and indexed by number, and the kinds each apiVersion accepts. Reading and
 * compiling it takes a few milliseconds, so it happens on first use, and the result lives in the
 * ProtobufSchema object its owner holds (no module state): a server builds one and shares it.
 */
import { FieldFlag, readGeneratedDescriptor } from './descriptor.js';
import type { GeneratedDescriptor, ScalarType, SpecialKind } from './descriptor.js';
import { loadWireRuntime } from './wire-runtime.js';
import type { WireRuntime } from './wire-runtime.js';

/** Protobuf wire types. */
export const WireType = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

export interface FieldPlan {
  /** Position in the message's `fields`; the decoder keeps values by it. */
  readonly index: number;
  readonly json: string;
  readonly number: number;
  readonly scalar: ScalarType | undefined;
  /** The field's message type; set for every non-scalar field once all plans exist. */
  readonly message: MessagePlan | undefined;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly pointer: boolean;
  readonly omitEmpty: boolean;
  readonly omitZero: boolean;
  readonly inline: boolean;
  /** The wire type of one value (of one element, for repeated fields; map entries are messages). */
  readonly wireType: number;
  /** The key that precedes one value on the wire: number << 3 | wireType. */
  readonly tag: number;
}

export interface MessagePlan {
  readonly name: string;
  readonly special: SpecialKind | undefined;
  /** A Go named slice: the value is the array of the one repeated field. */
  readonly list: boolean;
  /** Go declaration order: the order of keys in JSON. */
  readonly fields: readonly FieldPlan[];
  /** Ascending field numbers: the order upstream writes fields in. */
  readonly encodeOrder: readonly FieldPlan[];
  /** Fields by number (sparse). */
  readonly byNumber: readonly (FieldPlan | undefined)[];
  /** Fields by JSON name, for special converters (which use the Protobuf names). */
  readonly byName: ReadonlyMap<string, FieldPlan>;
}

interface Compiled {
  readonly messages: readonly MessagePlan[];
  readonly byName: ReadonlyMap<string, MessagePlan>;
  readonly descriptor: GeneratedDescriptor;
}

function wireTypeOf(scalar: ScalarType | undefined): number {
  switch (scalar) {
    case 'int32':
    case 'int64':
    case 'bool':
      return WireType.varint;
    case 'double':
      return WireType.fixed64;
    default:
      return WireType.lengthDelimited;
  }
}

function compile(descriptor: GeneratedDescriptor): Compiled {
  type MutableField = { -readonly [K in keyof FieldPlan]: FieldPlan[K] };
  const pending: Array<[MutableField, number]> = [];
  const messages: MessagePlan[] = descriptor.messages.map((m) => {
    const fields = m.fields.map(([json, number, type, flags], index) => {
      const scalar = typeof type === 'string' ? type : undefined;
      const map = (flags & FieldFlag.map) !== 0;
      const wireType = map ? WireType.lengthDelimited : wireTypeOf(scalar);
      const field: MutableField = {
        index,
        json,
        number,
        scalar,
        message: undefined,
        repeated: (flags & FieldFlag.repeated) !== 0,
        map,
        pointer: (flags & FieldFlag.pointer) !== 0,
        omitEmpty: (flags & FieldFlag.omitEmpty) !== 0,
        omitZero: (flags & FieldFlag.omitZero) !== 0,
        inline: (flags & FieldFlag.inline) !== 0,
        wireType,
        tag: (number << 3) | wireType,
      };
      if (typeof type === 'number') pending.push([field, type]);
      return field;
    });
    const byNumber: (FieldPlan | undefined)[] = [];
    for (const f of fields) byNumber[f.number] = f;
    return {
      name: m.name,
      special: m.special,
      list: m.list === true,
      fields,
      encodeOrder: [...fields].sort((a, b) => a.number - b.number),
      byNumber,
      byName: new Map(fields.map((f) => [f.json, f])),
    };
  });
  for (const [field, index] of pending) field.message = messages[index];
  return { messages, byName: new Map(messages.map((m) => [m.name, m])), descriptor };
}

/**
 * The built-in Protobuf types, compiled on first use. Holds no global state: each instance
 * compiles its own copy, so a server creates one and passes it to every codec call.
 */
export class ProtobufSchema {
  #compiled: Compiled | undefined;
  #wire: WireRuntime | undefined;

  constructor(private readonly load: () => GeneratedDescriptor = readGeneratedDescriptor) {}

  private get compiled(): Compiled {
    this.#compiled ??= compile(this.load());
    return this.#compiled;
  }

  /** protobufjs's Reader and Writer, loaded on first use. */
  get wire(): WireRuntime {
    this.#wire ??= loadWireRuntime();
    return this.#wire;
  }

  /** The plan of a message by its full Protobuf name, e.g. `k8s.io.api.core.v1.Pod`. */
  message(name: string): MessagePlan | undefined {
    return this.compiled.byName.get(name);
  }

  /**
   * The message of an object's apiVersion and kind: the kinds registered in that group-version,
   * then the meta/v1 kinds every group-version accepts (Status, DeleteOptions, WatchEvent, ...).
   * Undefined for an unknown apiVersion or kind.
   */
  messageForKind(apiVersion: string, kind: string): MessagePlan | undefined {
    const { descriptor, messages } = this.compiled;
    const kinds = Object.hasOwn(descriptor.apiVersions, apiVersion) ? descriptor.apiVersions[apiVersion] : undefined;
    if (!kinds) return undefined;
    const index = Object.hasOwn(kinds, kind) ? kinds[kind] : Object.hasOwn(descriptor.sharedKinds, kind) ? descriptor.sharedKinds[kind] : undefined;
    return index === undefined ? undefined : messages[index];
  }

  /** Whether any kind of this apiVersion has a Protobuf form. */
  knowsApiVersion(apiVersion: string): boolean {
    return Object.hasOwn(this.compiled.descriptor.apiVersions, apiVersion);
  }
}
