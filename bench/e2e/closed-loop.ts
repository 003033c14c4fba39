/**
 * The closed-loop job: each client sends a request, waits for the answer, sends the next, over
 * HTTP/1.1 keep-alive or HTTP/2 (see senders.ts). Every client first sends one untimed request, so
 * that all connections (TLS handshakes) are open before the clock starts: the figure is the steady
 * state of a keep-alive client, not its connection setup.
 */
import { now } from './https-client.js';
import type { ClosedLoopJob, ClosedLoopResult } from './jobs.js';
import { coresOfOthers, readCpuOfOthers, type CpuWhileMeasured } from './proc-stats.js';
import { requestAt } from './request-pattern.js';
import { openSender, type Sender } from './senders.js';

/** Runs `job`; bounded by its duration and request count. Never rejects on HTTP errors. */
export async function runClosedLoop(job: ClosedLoopJob): Promise<ClosedLoopResult> {
  const sender = await openSender(job.target, job.protocol ?? 'http/1.1', job.concurrency);
  const tally = new Tally();
  let issued = 0;
  try {
    // Untimed: one request per client, all at once, so each opens its own connection.
    await Promise.all(Array.from({ length: job.concurrency }, () => sendOne(job, sender, issued++, undefined)));
    const untimed = issued;
    // Read when the clock starts and stops, so that the TLS handshakes before it are not counted
    // (and this process's own CPU after the reading of /proc, which takes a few milliseconds).
    const othersBefore = readCpuOfOthers(job.serverPid);
    const cpuBefore = process.cpuUsage();
    const started = now();
    const deadline = started + job.durationMs;
    const client = async (): Promise<void> => {
      while (issued - untimed < job.maxRequests && now() < deadline) await sendOne(job, sender, issued++, tally);
    };
    await Promise.all(Array.from({ length: job.concurrency }, client));
    const elapsedMs = now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    return tally.result(untimed, elapsedMs, {
      generatorCores: (cpu.user + cpu.system) / 1000 / elapsedMs,
      ...coresOfOthers(othersBefore, readCpuOfOthers(job.serverPid), elapsedMs),
    });
  } finally {
    sender.close();
  }
}

async function sendOne(job: ClosedLoopJob, sender: Sender, i: number, tally: Tally | undefined): Promise<void> {
  const request = requestAt(job.pattern, i);
  const began = now();
  try {
    // Bodies are counted, not kept: the generator must not become the bottleneck.
    const reply = await sender.send(request, false);
    tally?.record(reply.status, now() - began, reply.bytes, () => `${request.method} ${request.path}: HTTP ${reply.status}`);
  } catch (err) {
    tally?.record(0, 0, 0, () => `${request.method} ${request.path}: ${String(err)}`);
  }
}

/** Counts answers by status and keeps successful latencies. */
class Tally {
  private ok = 0;
  private failed = 0;
  private bytes = 0;
  private readonly statuses: Record<string, number> = {};
  private firstFailure: string | undefined;
  private latencies = new Float64Array(1 << 14);

  record(status: number, latencyMs: number, bytes: number, describe: () => string): void {
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (status < 200 || status >= 300) {
      this.failed++;
      this.firstFailure ??= describe();
      return;
    }
    if (this.ok === this.latencies.length) {
      const grown = new Float64Array(this.latencies.length * 2);
      grown.set(this.latencies);
      this.latencies = grown;
    }
    this.latencies[this.ok++] = latencyMs;
    this.bytes += bytes;
  }

  result(untimed: number, elapsedMs: number, cpu: CpuWhileMeasured & { readonly generatorCores: number }): ClosedLoopResult {
    return {
      ok: this.ok,
      failed: this.failed,
      untimed,
      statuses: this.statuses,
      ...(this.firstFailure ? { firstFailure: this.firstFailure } : {}),
      latenciesMs: this.latencies.slice(0, this.ok),
      elapsedMs,
      responseBytes: this.bytes,
      ...cpu,
    };
  }
}
