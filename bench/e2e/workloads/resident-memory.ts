/**
 * Reading the server's resident memory at a settled moment: after an idle pause (VmRSS as it is),
 * then after forced full garbage collections (what the objects really hold on to).
 */
import type { CapstanProcess } from '../capstan-process.js';
import type { E2eContext } from '../e2e-context.js';
import { mib } from '../format.js';

export interface ResidentMemory {
  /** After the idle pause, before any forced collection. */
  readonly idleBytes: number;
  /** After two forced full collections and a short pause. */
  readonly settledBytes: number;
}

/** Pause after the collections, for freed pages to leave the resident set. */
const AFTER_GC_MS = 1000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function readResidentMemory(ctx: E2eContext, server: CapstanProcess): Promise<ResidentMemory> {
  await sleep(ctx.settings.settleMs);
  const idleBytes = server.residentBytes();
  await ctx.load.run({ kind: 'collect-garbage', inspectorUrl: await server.inspectorUrl(), times: 2 });
  await sleep(AFTER_GC_MS);
  return { idleBytes, settledBytes: server.residentBytes() };
}

/** "412 MiB, 3.81x their JSON (108 MiB); 929 MiB before a forced GC". */
export function describeResident(memory: ResidentMemory, jsonBytes: number): string {
  return `${mib(memory.settledBytes)}, ${(memory.settledBytes / jsonBytes).toFixed(2)}x their JSON (${mib(jsonBytes)}); ${mib(memory.idleBytes)} before a forced GC`;
}
