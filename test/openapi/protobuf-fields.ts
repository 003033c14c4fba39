/**
 * Reads a Protobuf message into its fields by number, without a schema: enough for tests to check
 * bytes against field numbers written out by hand from the upstream .proto files.
 */

export type FieldValue = { readonly varint: bigint } | { readonly fixed64: Buffer } | { readonly bytes: Buffer };

export interface Field {
  readonly number: number;
  readonly value: FieldValue;
}

function readVarint(buf: Buffer, at: { offset: number }): bigint {
  let result = 0n;
  for (let shift = 0n; ; shift += 7n) {
    if (at.offset >= buf.length) throw new Error('truncated varint');
    const byte = buf[at.offset++]!;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return result;
  }
}

/** Every field of `buf` in wire order; throws on bytes that are not a well-formed message. */
export function fieldsOf(buf: Buffer): Field[] {
  const fields: Field[] = [];
  const at = { offset: 0 };
  while (at.offset < buf.length) {
    const tag = Number(readVarint(buf, at));
    const number = tag >>> 3;
    switch (tag & 7) {
      case 0:
        fields.push({ number, value: { varint: readVarint(buf, at) } });
        break;
      case 1:
        fields.push({ number, value: { fixed64: buf.subarray(at.offset, (at.offset += 8)) } });
        break;
      case 2: {
        const length = Number(readVarint(buf, at));
        if (at.offset + length > buf.length) throw new Error('truncated field');
        fields.push({ number, value: { bytes: buf.subarray(at.offset, (at.offset += length)) } });
        break;
      }
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
