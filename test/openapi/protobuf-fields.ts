/**
 * Reads a Protobuf message into its fields by number, without a schema (protobufjs's wire Reader):
 * enough for tests to check bytes against field numbers written out by hand from the upstream
 * .proto files.
 */
import { loadWireRuntime } from '../../src/serialization/protobuf/wire-runtime.js';

export type FieldValue = { readonly varint: bigint } | { readonly fixed64: Buffer } | { readonly bytes: Buffer };

export interface Field {
  readonly number: number;
  readonly value: FieldValue;
}

/** Every field of `buf` in wire order; throws on bytes that are not a well-formed message. */
export function fieldsOf(buf: Buffer): Field[] {
  const fields: Field[] = [];
  const reader = loadWireRuntime().Reader.create(buf);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const number = tag >>> 3;
    const at = reader.pos;
    switch (tag & 7) {
      case 0:
        fields.push({ number, value: { varint: BigInt(String(reader.uint64())) } });
        break;
      case 1:
        reader.skip(8);
        fields.push({ number, value: { fixed64: buf.subarray(at, at + 8) } });
        break;
      case 2:
        fields.push({ number, value: { bytes: Buffer.from(reader.bytes()) } });
        break;
      default:
        throw new Error(`unexpected wire type ${tag & 7}`);
    }
  }
  return fields;
}

/** The length-delimited values of field `number`. */
export function bytesOf(buf: Buffer, number: number): Buffer[] {
  return fieldsOf(buf).filter((f) => f.number === number && 'bytes' in f.value).map((f) => (f.value as { bytes: Buffer }).bytes);
}

/** The one length-delimited value of field `number`; throws unless there is exactly one. */
export function onlyBytes(buf: Buffer, number: number): Buffer {
  const all = bytesOf(buf, number);
  if (all.length !== 1) throw new Error(`field ${number}: ${all.length} values`);
  return all[0]!;
}

/** Field `number` as text (a string field). */
export function textOf(buf: Buffer, number: number): string {
  return onlyBytes(buf, number).toString('utf8');
}

/** Map entries (name = 1, value = 2) of repeated field `number`, by name. */
export function entriesOf(buf: Buffer, number: number): Map<string, Buffer> {
  return new Map(bytesOf(buf, number).map((entry) => [textOf(entry, 1), bytesOf(entry, 2)[0] ?? Buffer.alloc(0)]));
}
