/**
 * The profilers a server's debug paths share (one CPU profiler, so that a second recording is
 * refused while one runs; the process's one heap sampler), loaded with their encoders on first
 * use: node:inspector alone takes ~4 ms to load, and start time is a feature.
 */
import type { HeapSampler } from './heap-sampler.js';

/** V8 samples the stack every millisecond (Go's CPU profile: every 10 ms). */
export const CPU_SAMPLING_INTERVAL_US = 1000;
/** Go's default heap sampling rate (runtime.MemProfileRate). */
export const HEAP_SAMPLING_INTERVAL_BYTES = 512 * 1024;

/**
 * V8 has one sampling heap profiler per isolate, so every server in this process (tests and
 * embedders start several) shares one sampler; it stops when the last server using it stops.
 */
let sharedHeap: { sampler: HeapSampler; users: number } | undefined;

async function loadProfiling() {
  const [cpu, heap, cpuEncoding, heapEncoding] = await Promise.all([
    import('./cpu-profiler.js'), import('./heap-sampler.js'), import('./pprof-cpu-profile.js'), import('./pprof-heap-profile.js'),
  ]);
  sharedHeap ??= { sampler: new heap.HeapSampler(HEAP_SAMPLING_INTERVAL_BYTES), users: 0 };
  return {
    cpu: new cpu.CpuProfiler(CPU_SAMPLING_INTERVAL_US),
    heap: sharedHeap.sampler,
    ProfilerBusyError: cpu.ProfilerBusyError,
    encodeCpuProfile: cpuEncoding.encodeCpuProfile,
    encodeHeapProfile: heapEncoding.encodeHeapProfile,
  };
}

export type LoadedProfilers = Awaited<ReturnType<typeof loadProfiling>>;

export class Profilers {
  private loaded: Promise<LoadedProfilers> | undefined;
  private usesHeap = false;
  private stopped = false;

  load(): Promise<LoadedProfilers> {
    return (this.loaded ??= loadProfiling());
  }

  /**
   * Starts sampling the heap (Go samples from the start; see heap-sampler.ts), or joins the
   * sampling another server of this process started. Nothing once stopped.
   */
  async startHeapSampling(): Promise<void> {
    const { heap } = await this.load();
    if (this.stopped) return;
    if (!this.usesHeap) {
      this.usesHeap = true;
      sharedHeap!.users++;
    }
    await heap.start();
  }

  stop(): void {
    this.stopped = true;
    if (!this.usesHeap) return;
    this.usesHeap = false;
    if (--sharedHeap!.users === 0) sharedHeap!.sampler.stop();
  }
}
