/**
 * V8's sampling heap profile (the objects still alive among those sampled, each with the stack
 * that allocated it) in the format of Go's /debug/pprof/heap: pprof's Protobuf with the in-use
 * sample types, `inuse_objects` and `inuse_space`. Go's `alloc_*` types count what was freed as
 * well; the sampler keeps only what is alive (see heap-sampler.ts), so they are not given.
 *
 * V8 samples one allocation per `interval` bytes on average (a Poisson process, as Go's heap
 * profiler); a sampled object of `size` bytes stands for 1 / (1 - e^(-size/interval)) objects of
 * its kind, which is how V8 and Go both scale their samples back to totals.
 */
import type { HeapProfiler } from 'node:inspector';
import { GrowableWriter } from '../serialization/protobuf/growable-writer.js';
import { PROFILE_FIELDS as PROFILE, PprofStrings, stackOf, writeLocations, writeSample, writeTime, writeValueType, type CallFrame } from './pprof-common.js';

/** The sampling profile as V8 sends it (the inspector's types leave out node ids and samples). */
export interface SampledHeap {
  readonly head: SampledHeapNode;
  readonly samples: ReadonlyArray<{ readonly size: number; readonly nodeId: number }>;
}

export interface SampledHeapNode extends Omit<HeapProfiler.SamplingHeapProfileNode, 'children'> {
  readonly id: number;
  readonly children: readonly SampledHeapNode[];
}

export interface HeapProfileContext {
  /** When the profile was read (ms since the epoch): the profile's time. */
  readonly takenAtMs: number;
  /** The sampler's mean interval (bytes): the profile's period. */
  readonly intervalBytes: number;
}

/** The profile as pprof's Protobuf message (not compressed; the endpoint gzips it). */
export function encodeHeapProfile(heap: SampledHeap, context: HeapProfileContext): Buffer {
  const parentOf = new Map<number, number>();
  const frameOf = new Map<number, CallFrame>();
  const visit = (node: SampledHeapNode): void => {
    frameOf.set(node.id, node.callFrame);
    for (const child of node.children) {
      parentOf.set(child.id, node.id);
      visit(child);
    }
  };
  visit(heap.head);

  // Per allocating node: the objects and bytes its live samples stand for. V8 may list a sample
  // whose node is not in the tree it sends: with no stack to give it, it is left out.
  const inUse = new Map<number, { objects: number; bytes: number }>();
  for (const { size, nodeId } of heap.samples) {
    if (!frameOf.has(nodeId)) continue;
    const scale = 1 / (1 - Math.exp(-size / context.intervalBytes));
    const entry = inUse.get(nodeId) ?? { objects: 0, bytes: 0 };
    entry.objects += scale;
    entry.bytes += size * scale;
    inUse.set(nodeId, entry);
  }

  const strings = new PprofStrings();
  const w = new GrowableWriter();
  writeValueType(w, PROFILE.sampleType, strings, 'inuse_objects', 'count');
  writeValueType(w, PROFILE.sampleType, strings, 'inuse_space', 'bytes');
  const locations = new Set<number>();
  for (const [nodeId, { objects, bytes }] of inUse) {
    const stack = stackOf(nodeId, heap.head.id, parentOf);
    for (const id of stack) locations.add(id);
    writeSample(w, stack, [Math.round(objects), Math.round(bytes)]);
  }
  writeLocations(w, strings, [...locations].map((id) => [id, frameOf.get(id)!] as const));
  writeTime(w, context.takenAtMs);
  writeValueType(w, PROFILE.periodType, strings, 'space', 'bytes');
  w.varint(PROFILE.period, context.intervalBytes);
  w.varint(PROFILE.defaultSampleType, strings.index('inuse_space'));
  strings.write(w);
  return Buffer.from(w.finish());
}
