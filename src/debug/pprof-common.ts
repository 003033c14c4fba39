/**
 * What both profiles write the same way in pprof's profile.proto (github.com/google/pprof): the
 * string table, value types, and the locations and functions of V8's call trees (a location per
 * call tree node, its id the node's; a function per distinct frame, with its file and first line).
 */
import type { Profiler } from 'node:inspector';
import type { GrowableWriter } from '../serialization/protobuf/growable-writer.js';

/** A call tree node's frame, the same in CPU and heap profiles. */
export type CallFrame = Profiler.ProfileNode['callFrame'];

/** Field numbers of the Profile message that both profiles write. */
export const PROFILE_FIELDS = {
  sampleType: 1, sample: 2, location: 4, function: 5, stringTable: 6,
  timeNanos: 9, durationNanos: 10, periodType: 11, period: 12, defaultSampleType: 14,
} as const;
const VALUE_TYPE = { type: 1, unit: 2 } as const;
const SAMPLE = { locationId: 1, value: 2 } as const;
const LOCATION = { id: 1, line: 4 } as const;
const LINE = { functionId: 1, line: 2 } as const;
const FUNCTION = { id: 1, name: 2, systemName: 3, filename: 4, startLine: 5 } as const;

/** profile.proto's string table: every string once, referred to by index; index 0 is "". */
export class PprofStrings {
  private readonly texts: string[] = [''];
  private readonly indexes = new Map<string, number>([['', 0]]);

  index(text: string): number {
    let at = this.indexes.get(text);
    if (at === undefined) {
      at = this.texts.length;
      this.texts.push(text);
      this.indexes.set(text, at);
    }
    return at;
  }

  /** Writes the table; call it last, once every message has named its strings. */
  write(w: GrowableWriter): void {
    for (const text of this.texts) w.string(PROFILE_FIELDS.stringTable, text);
  }
}

/** A ValueType message (a sample type or the period type) in `field`. */
export function writeValueType(w: GrowableWriter, field: number, strings: PprofStrings, type: string, unit: string): void {
  w.begin(field).varint(VALUE_TYPE.type, strings.index(type)).varint(VALUE_TYPE.unit, strings.index(unit)).end();
}

/** A Sample: its stack as location ids (leaf first) and its values. */
export function writeSample(w: GrowableWriter, stack: readonly number[], values: readonly number[]): void {
  w.begin(PROFILE_FIELDS.sample).packedVarints(SAMPLE.locationId, stack).packedVarints(SAMPLE.value, values).end();
}

/**
 * The stack of `nodeId` as location ids, leaf first, up to and without `rootId` (V8's "(root)",
 * which is no frame).
 */
export function stackOf(nodeId: number, rootId: number | undefined, parentOf: ReadonlyMap<number, number>): number[] {
  const stack: number[] = [];
  for (let id: number | undefined = nodeId; id !== undefined && id !== rootId; id = parentOf.get(id)) stack.push(id);
  return stack;
}

/** The Location of each call tree node given (by id), and the Function messages they name. */
export function writeLocations(w: GrowableWriter, strings: PprofStrings, nodes: Iterable<readonly [number, CallFrame]>): void {
  const functionIds = new Map<string, number>();
  const frames: CallFrame[] = [];
  for (const [id, frame] of nodes) {
    const key = `${frame.functionName}\u0000${frame.url}\u0000${frame.scriptId}\u0000${frame.lineNumber}\u0000${frame.columnNumber}`;
    let functionId = functionIds.get(key);
    if (functionId === undefined) {
      functionId = frames.push(frame);
      functionIds.set(key, functionId);
    }
    w.begin(PROFILE_FIELDS.location).varint(LOCATION.id, id);
    w.begin(LOCATION.line).varint(LINE.functionId, functionId).varint(LINE.line, frame.lineNumber + 1).end();
    w.end();
  }
  frames.forEach((frame, i) => {
    const name = strings.index(frame.functionName || '(anonymous)');
    w.begin(PROFILE_FIELDS.function).varint(FUNCTION.id, i + 1).varint(FUNCTION.name, name).varint(FUNCTION.systemName, name);
    w.varint(FUNCTION.filename, strings.index(frame.url)).varint(FUNCTION.startLine, frame.lineNumber + 1).end();
  });
}

/** The profile's wall-clock time (ms since the epoch), as nanoseconds. */
export function writeTime(w: GrowableWriter, atMs: number): void {
  w.bigVarint(PROFILE_FIELDS.timeNanos, BigInt(Math.round(atMs)) * 1_000_000n);
}
