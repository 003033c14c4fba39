/**
 * V8's CPU profile (a call tree with a node id per sample, as the inspector's Profiler.stop gives
 * it) in the format of Go's /debug/pprof/profile: a `perftools.profiles.Profile` message (pprof's
 * profile.proto), which `go tool pprof`, speedscope and other profile viewers read.
 *
 * A sample per node that was on top of the stack, its stack the node and its ancestors (leaf
 * first), valued as Go values CPU samples: a count and the CPU nanoseconds they stand for. V8's
 * "(idle)" samples are the thread waiting for work, not CPU time, and are left out; "(program)"
 * (V8's own work) and "(garbage collector)" stay.
 */
import type { Profiler } from 'node:inspector';
import { GrowableWriter } from '../serialization/protobuf/growable-writer.js';
import { PROFILE_FIELDS as PROFILE, PprofStrings, stackOf, writeLocations, writeSample, writeTime, writeValueType } from './pprof-common.js';

/** What V8 reports for samples taken while the thread had nothing to run. */
const IDLE = '(idle)';

export interface ProfileTiming {
  /** Wall clock when profiling began (ms since the epoch): the profile's time. */
  readonly startedAtMs: number;
  /** The sampling interval asked of V8 (µs): the profile's period. */
  readonly intervalUs: number;
}

/** The profile as pprof's Protobuf message (not compressed; Go's endpoint gzips it). */
export function encodeCpuProfile(profile: Profiler.Profile, timing: ProfileTiming): Buffer {
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
  const rootId = profile.nodes.find((node) => !parentOf.has(node.id))?.id;

  const strings = new PprofStrings();
  const w = new GrowableWriter();
  writeValueType(w, PROFILE.sampleType, strings, 'samples', 'count');
  writeValueType(w, PROFILE.sampleType, strings, 'cpu', 'nanoseconds');
  const locations = new Set<number>();
  for (const [nodeId, { count, micros }] of sampledTime(profile, nodeById)) {
    const stack = stackOf(nodeId, rootId, parentOf);
    for (const id of stack) locations.add(id);
    writeSample(w, stack, [count, Math.round(micros * 1000)]);
  }
  writeLocations(w, strings, [...locations].map((id) => [id, nodeById.get(id)!.callFrame] as const));
  writeTime(w, timing.startedAtMs);
  w.varint(PROFILE.durationNanos, Math.max(0, profile.endTime - profile.startTime) * 1000);
  writeValueType(w, PROFILE.periodType, strings, 'cpu', 'nanoseconds');
  w.varint(PROFILE.period, timing.intervalUs * 1000);
  w.varint(PROFILE.defaultSampleType, strings.index('cpu'));
  strings.write(w);
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
    const node = nodeById.get(samples[i]!);
    // A sample of a node the profile does not list has no stack to give: left out.
    if (node === undefined || node.callFrame.functionName === IDLE) continue;
    const nodeId = node.id;
    const entry = onTop.get(nodeId) ?? { count: 0, micros: 0 };
    entry.count++;
    entry.micros += Math.max(0, deltas[i] ?? 0);
    onTop.set(nodeId, entry);
  }
  return onTop;
}
