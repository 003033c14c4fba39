/** The shape of one end-to-end workload. */
import type { E2eContext } from '../e2e-context.js';
import type { ResultRow } from '../report.js';
import type { E2eSettings, WorkloadName } from '../settings.js';

export interface Workload {
  /** The --only name (several workloads may share one). */
  readonly name: WorkloadName;
  /** Needs the Capstan process the benchmark started (restarts, /proc); skipped for --kubeconfig. */
  readonly ownServerOnly: boolean;
  /** What the rows mean and how they were measured, for the report's "How" list. */
  describe(settings: E2eSettings): string;
  /** Loads the data the workload needs, before its clock (and profile window) starts. */
  prepare?(ctx: E2eContext): Promise<unknown>;
  /** Measures; throws when the workload cannot complete (the run goes on with the next). */
  run(ctx: E2eContext): Promise<ResultRow[]>;
}
