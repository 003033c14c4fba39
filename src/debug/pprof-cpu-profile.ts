/**
 * V8's CPU profile (a call tree with a node id per sample, as the inspector's Profiler.stop gives
 * it) in the format of Go's /debug/pprof/profile: a `perftools.profiles.Profile` message (pprof's
 * profile.proto), which `go tool pprof`, speedscope and other profile viewers read.
 *
 * The mapping: a function per distinct (name, script, line, column); a location per call tree
 * node, with that node's function and line; a sample per node that was on top of the stack, its
 * stack the node and its ancestors (leaf first), valued as Go values CPU samples: a count and the
 * CPU nanoseconds they stand for. V8's "(idle)" samples are the thread waiting for work, not CPU
 * time, and are left out; "(program)" (V8's own work) and "(garbage collector)" stay.
 */
import type { Profiler } from 'node:inspector';
import { GrowableWriter } from '../serialization/protobuf/growable-writer.js';

type CallFrame = Profiler.ProfileNode['callFrame'];

/** What V8 reports for samples taken while the thread had nothing to run. */
const IDLE = '(idle)';

/** Field numbers of profile.proto's messages. */
const PROFILE = { sampleType: 1, sample: 2, location: 4, function: 5, stringTable: 6, timeNanos: 9, durationNanos: 10, periodType: 11, period: 12, defaultSampleType: 14 } as const;
const VALUE_TYPE = { type: 1, unit: 2 } as const;
const SAMPLE = { locationId: 1, value: 2 } as const;
const LOCATION = { id: 1, line: 4 } as const;
const LINE = { functionId: 1, line: 2 } as const;
const FUNCTION = { id: 1, name: 2, systemName: 3, filename: 4, startLine: 5 } as const;

export interface ProfileTiming {
  /** Wall clock when profiling began (ms since the epoch): the profile's time. */
  readonly startedAtMs: number;
  /** The sampling interval asked of V8 (µs): the profile's period. */
  readonly intervalUs: number;
}

/** The profile as pprof's Protobuf message (not compressed; Go's endpoint gzips it). */
export function encodeCpuProfile(profile: Profiler.Profile, timing: ProfileTiming): Buffer {
  const strings = new StringTable();
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
  const rootId = profile.nodes.find((node) => !parentOf.has(node.id))?.id;

  const onTop = sampledTime(profile, nodeById);
  const functionIds = new Map<string, number>();
  const functions: Array<{ id: number; frame: CallFrame }> = [];
  const functionOf = (frame: CallFrame): number => {
    const key = `${frame.functionName}\u0000${frame.url}\u0000${frame.scriptId}\u0000${frame.lineNumber}\u0000${frame.columnNumber}`;
    let id = functionIds.get(key);
    if (id === undefined) {
      id = functions.length + 1;
      functionIds.set(key, id);
      functions.push({ id, frame });
    }
    return id;
  };

  const w = new GrowableWriter();
  valueType(w.begin(PROFILE.sampleType), strings, 'samples', 'count').end();
  valueType(w.begin(PROFILE.sampleType), strings, 'cpu', 'nanoseconds').end();
  // Every node on a sampled stack becomes a location; the root (V8's "(root)") is no frame.
  const locations = new Set<number>();
  for (const [nodeId, { count, micros }] of onTop) {
    const stack: number[] = [];
    for (let id: number | undefined = nodeId; id !== undefined && id !== rootId; id = parentOf.get(id)) {
      stack.push(id);
      locations.add(id);
    }
    w.begin(PROFILE.sample).packedVarints(SAMPLE.locationId, stack).packedVarints(SAMPLE.value, [count, Math.round(micros * 1000)]).end();
  }
  for (const id of locations) {
    const frame = nodeById.get(id)!.callFrame;
    w.begin(PROFILE.location).varint(LOCATION.id, id);
    w.begin(LOCATION.line).varint(LINE.functionId, functionOf(frame)).varint(LINE.line, frame.lineNumber + 1).end();
    w.end();
  }
  for (const { id, frame } of functions) {
    const name = strings.index(frame.functionName || '(anonymous)');
    w.begin(PROFILE.function).varint(FUNCTION.id, id).varint(FUNCTION.name, name).varint(FUNCTION.systemName, name);
    w.varint(FUNCTION.filename, strings.index(frame.url)).varint(FUNCTION.startLine, frame.lineNumber + 1).end();
  }
  // The strings last: the messages above added every one they name.
  const periodType = [strings.index('cpu'), strings.index('nanoseconds')] as const;
  const defaultSampleType = strings.index('cpu');
  for (const text of strings.texts) w.string(PROFILE.stringTable, text);
  w.bigVarint(PROFILE.timeNanos, BigInt(Math.round(timing.startedAtMs)) * 1_000_000n);
  w.varint(PROFILE.durationNanos, Math.max(0, profile.endTime - profile.startTime) * 1000);
  w.begin(PROFILE.periodType).varint(VALUE_TYPE.type, periodType[0]).varint(VALUE_TYPE.unit, periodType[1]).end();
  w.varint(PROFILE.period, timing.intervalUs * 1000);
  w.varint(PROFILE.defaultSampleType, defaultSampleType);
  return Buffer.from(w.finish());
}

/**
 * Per node that was on top of the stack: how many samples, and the time they stand for (µs). A
 * sample stands for the time since the one before it (`timeDeltas`), as Chrome's profiler counts.
 */
function sampledTime(profile: Profiler.Profile, nodeById: ReadonlyMap<number, Profiler.ProfileNode>): Map<number, { count: number; micros: number }> {
  const onTop = new Map<number, { count: number; micros: number }>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const nodeId = samples[i]!;
    if (nodeById.get(nodeId)?.callFrame.functionName === IDLE) continue;
    const entry = onTop.get(nodeId) ?? { count: 0, micros: 0 };
    entry.count++;
    entry.micros += Math.max(0, deltas[i] ?? 0);
    onTop.set(nodeId, entry);
  }
  return onTop;
}

function valueType(w: GrowableWriter, strings: StringTable, type: string, unit: string): GrowableWriter {
  return w.varint(VALUE_TYPE.type, strings.index(type)).varint(VALUE_TYPE.unit, strings.index(unit));
}

/** profile.proto's string table: every string once, referred to by index; index 0 is "". */
class StringTable {
  readonly texts: string[] = [''];
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
}
