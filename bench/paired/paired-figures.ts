/**
 * The figures of a paired run: each round's rate and main-thread CPU per request for two builds
 * measured back to back, and the median of their per-round ratios. Ratios of the same round cancel
 * what the shared machine did meanwhile, which moves a run's figures by more than most changes do.
 */
import { median } from '../stats.js';

export interface PairedRound {
  /** Requests answered a second. */
  readonly rate: number;
  /** Main-thread CPU per request (µs); undefined when the server's CPU could not be read. */
  readonly mainMicros: number | undefined;
}

export interface PairedSummary {
  readonly old: { readonly rate: number; readonly mainMicros: number };
  readonly new: { readonly rate: number; readonly mainMicros: number };
  /** Median over rounds of new/old. Above 1: the new build answers more. */
  readonly rateRatio: number;
  /** Median over rounds of new/old. Below 1: the new build costs less. */
  readonly cpuRatio: number;
}

/** Summarizes rounds run in pairs (`old[i]` beside `newer[i]`). */
export function summarizePairs(old: readonly PairedRound[], newer: readonly PairedRound[]): PairedSummary {
  if (old.length !== newer.length) throw new Error(`paired rounds: ${old.length} old against ${newer.length} new`);
  const cpu = (rounds: readonly PairedRound[]): number[] => rounds.flatMap((r) => (r.mainMicros === undefined ? [] : [r.mainMicros]));
  const cpuRatios = old.flatMap((o, i) => {
    const n = newer[i]!;
    return o.mainMicros === undefined || n.mainMicros === undefined ? [] : [n.mainMicros / o.mainMicros];
  });
  return {
    old: { rate: median(old.map((r) => r.rate)), mainMicros: median(cpu(old)) },
    new: { rate: median(newer.map((r) => r.rate)), mainMicros: median(cpu(newer)) },
    rateRatio: median(old.map((o, i) => newer[i]!.rate / o.rate)),
    cpuRatio: median(cpuRatios),
  };
}
