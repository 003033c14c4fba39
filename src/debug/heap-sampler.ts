/**
 * V8's sampling heap profiler, kept running so that a heap profile can be read at any time, as Go
 * samples its heap all along: one allocation per `intervalBytes` on average is recorded with its
 * stack, and forgotten when the object is collected. Go's default interval, 512 KiB, makes that a
 * few hundred records for a heap of a few hundred MiB, and a stack walk per 512 KiB allocated.
 */
import { Session } from 'node:inspector';
import { post } from './inspector-post.js';
import type { SampledHeap } from './pprof-heap-profile.js';

export class HeapSampler {
  private session: Session | undefined;
  /** The start under way or done, so that callers who start it at once share one session. */
  private starting: Promise<void> | undefined;

  constructor(readonly intervalBytes: number) {}

  get running(): boolean {
    return this.session !== undefined;
  }

  start(): Promise<void> {
    return (this.starting ??= this.begin().catch((err: unknown) => {
      this.starting = undefined;
      throw err;
    }));
  }

  private async begin(): Promise<void> {
    const session = new Session();
    session.connect();
    try {
      await post(session, 'HeapProfiler.enable');
      await post(session, 'HeapProfiler.startSampling', { samplingInterval: this.intervalBytes });
    } catch (err) {
      session.disconnect();
      throw err;
    }
    // Stopped while it started (the server stopping within the start): it must not run on.
    if (this.starting === undefined) {
      session.disconnect();
      return;
    }
    this.session = session;
  }

  /** The live sampled objects; after a full collection first when `collectGarbage` (Go's ?gc=1). */
  async read(collectGarbage: boolean): Promise<SampledHeap> {
    const session = this.session;
    if (!session) throw new Error('the heap sampler is not running');
    if (collectGarbage) await post(session, 'HeapProfiler.collectGarbage');
    const { profile } = (await post(session, 'HeapProfiler.getSamplingProfile')) as { profile: SampledHeap };
    return profile;
  }

  stop(): void {
    this.session?.disconnect();
    this.session = undefined;
    this.starting = undefined;
  }
}
