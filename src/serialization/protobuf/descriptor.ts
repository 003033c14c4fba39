/**
 * The shape of generated/descriptor.json, written by scripts/generate-protobuf.mjs from upstream's
 * Protobuf descriptor and the Go struct tags of k8s.io/api, apimachinery and
 * apiextensions-apiserver. The file is read at run time (not imported), so loading this module costs
 * nothing until a Protobuf body is first seen.
 */
import { readFileSync } from 'node:fs';

/** Scalar field types of the built-in messages (no other scalar type occurs in them). */
export type ScalarType = 'string' | 'int32' | 'int64' | 'bool' | 'bytes' | 'double';

/** Messages whose Go types marshal JSON by hand; each has a converter in special-types.ts. */
export type SpecialKind =
  | 'time'
  | 'microTime'
  | 'fieldsV1'
  | 'rawExtension'
  | 'intOrString'
  | 'quantity'
  | 'json'
  | 'schemaOrBool'
  | 'schemaOrArray'
  | 'schemaOrStringArray';

/** Bits of a field's flags, as the generator writes them. */
export const FieldFlag = {
  /** `repeated` (and not a map). */
  repeated: 1,
  /** A map with string keys. */
  map: 2,
  /** The Go field is a pointer: absent means nil, and a zero on the wire is a set value. */
  pointer: 4,
  /** `json:",omitempty"`. */
  omitEmpty: 8,
  /** `json:",omitzero"`. */
  omitZero: 16,
  /** `json:",inline"`: the message's fields appear in the enclosing JSON object. */
  inline: 32,
} as const;

/**
 * One field: JSON name (the Protobuf name for special messages, '' for inline fields), field
 * number, type (a scalar or the index of a message in `messages`) and FieldFlag bits. Fields come
 * in Go declaration order, which is the order of keys in upstream's JSON.
 */
export type GeneratedField = readonly [json: string, number: number, type: ScalarType | number, flags: number];

export interface GeneratedMessage {
  /** Full Protobuf name, e.g. `k8s.io.api.core.v1.ConfigMap`. */
  readonly name: string;
  readonly special?: SpecialKind;
  /** The Go type is a named slice: the message's one repeated field is the JSON array. */
  readonly list?: boolean;
  readonly fields: readonly GeneratedField[];
}

export interface GeneratedDescriptor {
  /** Sorted by name; fields refer to messages by index. */
  readonly messages: readonly GeneratedMessage[];
  /** meta/v1 kinds that every group-version accepts (Status, DeleteOptions, WatchEvent, ...). */
  readonly sharedKinds: Readonly<Record<string, number>>;
  /** apiVersion (`v1`, `apps/v1`) -> kind -> message index. */
  readonly apiVersions: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** Makes tsc copy descriptor.json into dist/ beside this module. */
export type DescriptorFile = typeof import('./generated/descriptor.json', { with: { type: 'json' } });

/** Reads and parses the generated descriptor (synchronously; ProtobufSchema memoizes it). */
export function readGeneratedDescriptor(): GeneratedDescriptor {
  return JSON.parse(readFileSync(new URL('./generated/descriptor.json', import.meta.url), 'utf8')) as GeneratedDescriptor;
}
