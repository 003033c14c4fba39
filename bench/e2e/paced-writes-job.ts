/**
 * The paced-writes job: writes at a fixed rate, open loop (a slow answer does not delay the next
 * write), each stamped with its send time, so that watchers can time delivery from the write.
 */
import { keepAliveAgent, now, send } from './https-client.js';
import type { PacedWriteJob, PacedWriteResult } from './jobs.js';
import { requestAt } from './request-pattern.js';

/** Writes in flight at most: beyond this the server is too slow for the rate, and the job says so. */
const MAX_IN_FLIGHT = 64;

export async function runPacedWrites(job: PacedWriteJob): Promise<PacedWriteResult> {
  const agent = keepAliveAgent(job.target, MAX_IN_FLIGHT);
  const latencies = new Float64Array(job.count);
  const inFlight = new Set<Promise<void>>();
  let ok = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const intervalMs = 1000 / job.perSecond;
  try {
    const started = now();
    for (let i = 0; i < job.count; i++) {
      const due = started + i * intervalMs;
      const wait = due - now();
      if (wait > 0) await sleep(wait);
      while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      const request = requestAt(job.pattern, i);
      const began = now();
      const write = send(agent, job.target, request, true).then(
        (reply) => {
          if (reply.status >= 200 && reply.status < 300) latencies[ok++] = now() - began;
          else {
            failed++;
            firstFailure ??= `${request.method} ${request.path}: HTTP ${reply.status}: ${reply.body!.subarray(0, 300).toString()}`;
          }
        },
        (err: unknown) => {
          failed++;
          firstFailure ??= `${request.method} ${request.path}: ${String(err)}`;
        },
      );
      const tracked = write.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    }
    const sendingMs = now() - started;
    await Promise.all(inFlight);
    return {
      ok,
      failed,
      ...(firstFailure ? { firstFailure } : {}),
      latenciesMs: latencies.slice(0, ok),
      achievedPerSecond: job.count > 1 ? ((job.count - 1) * 1000) / sendingMs : job.perSecond,
    };
  } finally {
    agent.destroy();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
