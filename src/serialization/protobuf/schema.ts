/**
 * The compiled form of the generated descriptor: one plan per message, with fields indexed by
 * number and linked to their message types' plans, and the kinds each apiVersion accepts. The
 * descriptor is read on first use and each message compiled when first needed; everything lives in
 * the ProtobufSchema object its owner holds (no module state): a server builds one and shares it.
 */
import { FieldFlag, readGeneratedDescriptor } from './descriptor.js';
import type { GeneratedDescriptor, GeneratedField, ScalarType, SpecialKind } from './descriptor.js';
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

/** How a value of `scalar` travels on the wire; `undefined` is a message (or a map entry). */
export function wireTypeOf(scalar: ScalarType | undefined): number {
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

/** A field's plan; its message type's plan is compiled when first asked for. */
class CompiledField implements FieldPlan {
  readonly json: string;
  readonly number: number;
  readonly scalar: ScalarType | undefined;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly pointer: boolean;
  readonly omitEmpty: boolean;
  readonly omitZero: boolean;
  readonly inline: boolean;
  readonly wireType: number;
  readonly tag: number;
  readonly #messageIndex: number | undefined;
  #message: MessagePlan | undefined;

  constructor(
    [json, number, type, flags]: GeneratedField,
    readonly index: number,
    private readonly plans: Plans,
  ) {
    this.json = json;
    this.number = number;
    this.scalar = typeof type === 'string' ? type : undefined;
    this.#messageIndex = typeof type === 'number' ? type : undefined;
    this.repeated = (flags & FieldFlag.repeated) !== 0;
    this.map = (flags & FieldFlag.map) !== 0;
    this.pointer = (flags & FieldFlag.pointer) !== 0;
    this.omitEmpty = (flags & FieldFlag.omitEmpty) !== 0;
    this.omitZero = (flags & FieldFlag.omitZero) !== 0;
    this.inline = (flags & FieldFlag.inline) !== 0;
    this.wireType = this.map ? WireType.lengthDelimited : wireTypeOf(this.scalar);
    this.tag = (number << 3) | this.wireType;
  }

  get message(): MessagePlan | undefined {
    if (this.#messageIndex === undefined) return undefined;
    this.#message ??= this.plans.at(this.#messageIndex);
    return this.#message;
  }
}

/**
 * Message plans by descriptor index, each compiled when first used: a request touches a few
 * dozen of the descriptor's thousand-odd messages, so the first Protobuf request does not pay for
 * the rest.
 */
class Plans {
  private readonly compiled: (MessagePlan | undefined)[] = [];
  private readonly indexByName: ReadonlyMap<string, number>;

  constructor(readonly descriptor: GeneratedDescriptor) {
    this.indexByName = new Map(descriptor.messages.map((m, i) => [m.name, i]));
  }

  at(index: number): MessagePlan {
    return (this.compiled[index] ??= this.compile(index));
  }

  named(name: string): MessagePlan | undefined {
    const index = this.indexByName.get(name);
    return index === undefined ? undefined : this.at(index);
  }

  private compile(index: number): MessagePlan {
    const m = this.descriptor.messages[index]!;
    const fields = m.fields.map((generated, i) => new CompiledField(generated, i, this));
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
  }
}

/**
 * The built-in Protobuf types, compiled on first use. Holds no global state: each instance
 * compiles its own copy, so a server creates one and passes it to every codec call.
 */
export class ProtobufSchema {
  #plans: Plans | undefined;
  #wire: WireRuntime | undefined;

  constructor(private readonly load: () => GeneratedDescriptor = readGeneratedDescriptor) {}

  private get plans(): Plans {
    this.#plans ??= new Plans(this.load());
    return this.#plans;
  }

  /** protobufjs's Reader and Writer, loaded on first use. */
  get wire(): WireRuntime {
    this.#wire ??= loadWireRuntime();
    return this.#wire;
  }

  /** The plan of a message by its full Protobuf name, e.g. `k8s.io.api.core.v1.Pod`. */
  message(name: string): MessagePlan | undefined {
    return this.plans.named(name);
  }

  /**
   * The message of an object's apiVersion and kind: the kinds registered in that group-version,
   * then the meta/v1 kinds every group-version accepts (Status, DeleteOptions, WatchEvent, ...).
   * Undefined for an unknown apiVersion or kind.
   */
  messageForKind(apiVersion: string, kind: string): MessagePlan | undefined {
    const { descriptor } = this.plans;
    const kinds = Object.hasOwn(descriptor.apiVersions, apiVersion) ? descriptor.apiVersions[apiVersion] : undefined;
    if (!kinds) return undefined;
    const index = Object.hasOwn(kinds, kind) ? kinds[kind] : Object.hasOwn(descriptor.sharedKinds, kind) ? descriptor.sharedKinds[kind] : undefined;
    return index === undefined ? undefined : this.plans.at(index);
  }

  /** Whether any kind of this apiVersion has a Protobuf form. */
  knowsApiVersion(apiVersion: string): boolean {
    return Object.hasOwn(this.plans.descriptor.apiVersions, apiVersion);
  }
}
