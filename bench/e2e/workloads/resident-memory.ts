/**
 * Reading the server's resident memory at a settled moment: after an idle pause (VmRSS as it is),
 * then after forced full garbage collections (what the objects really hold on to), with the
 * process's own split of it (V8 heap, buffers outside it).
 */
import type { CapstanProcess } from '../capstan-process.js';
import type { E2eContext } from '../e2e-context.js';
import { mib } from '../format.js';
import type { SettledMemory } from '../jobs.js';

export interface ResidentMemory {
  /** After the idle pause, before any forced collection. */
  readonly idleBytes: number;
  /** After two forced full collections and a short pause. */
  readonly settledBytes: number;
  /** `process.memoryUsage()` in the server right after the collections. */
  readonly usage: SettledMemory;
}

/** Pause after the collections, for freed pages to leave the resident set. */
const AFTER_GC_MS = 1000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function readResidentMemory(ctx: E2eContext, server: CapstanProcess): Promise<ResidentMemory> {
  await sleep(ctx.settings.settleMs);
  const idleBytes = server.residentBytes();
  const usage = await ctx.load.run({ kind: 'settle-memory', inspectorUrl: await server.inspectorUrl(), collections: 2 });
  await sleep(AFTER_GC_MS);
  return { idleBytes, settledBytes: server.residentBytes(), usage };
}

/** "412 MiB, 3.81x their JSON (108 MiB); 929 MiB before a forced GC". */
export function describeResident(memory: ResidentMemory, jsonBytes: number): string {
  return `${mib(memory.settledBytes)}, ${(memory.settledBytes / jsonBytes).toFixed(2)}x their JSON (${mib(jsonBytes)}); ${mib(memory.idleBytes)} before a forced GC`;
}

/** Where the settled memory is, for the notes. */
export function describeSplit(memory: ResidentMemory): string {
  const u = memory.usage;
  const outside = memory.settledBytes - u.heapTotal - u.external;
  return `V8 heap ${mib(u.heapUsed)} used of ${mib(u.heapTotal)}, external ${mib(u.external)} (array buffers ${mib(u.arrayBuffers)}), the rest (code, native allocations: SQLite, OpenSSL, allocator slack) ${mib(outside)}`;
}
