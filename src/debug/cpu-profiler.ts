/**
 * Records the main thread's CPU profile for a while, through V8's inspector in this process (no
 * inspector port is opened). One recording at a time, as Go's runtime allows one CPU profile: a
 * second caller is refused with {@link ProfilerBusyError} rather than queued.
 */
import { Session, type Profiler } from 'node:inspector';
import { post } from './inspector-post.js';
import { sleep } from '../util/sleep.js';

export class ProfilerBusyError extends Error {
  constructor() {
    super('cpu profiling already in use');
  }
}

export interface CpuRecording {
  readonly profile: Profiler.Profile;
  /** Wall clock when the recording began (ms since the epoch). */
  readonly startedAtMs: number;
}

export class CpuProfiler {
  private recording = false;

  /** `intervalUs`: how often V8 samples the stack (µs). */
  constructor(readonly intervalUs: number) {}

  /**
   * Profiles for `durationMs`, or until `signal` aborts: then what was recorded so far, as Go's
   * handler ends a profile early when its request ends (a client that went away gets nothing, a
   * server that stops sends the shorter profile). Throws {@link ProfilerBusyError} while another
   * recording runs.
   */
  async record(durationMs: number, signal: AbortSignal): Promise<CpuRecording> {
    if (this.recording) throw new ProfilerBusyError();
    this.recording = true;
    const session = new Session();
    try {
      session.connect();
      await post(session, 'Profiler.enable');
      await post(session, 'Profiler.setSamplingInterval', { interval: this.intervalUs });
      const startedAtMs = Date.now();
      await post(session, 'Profiler.start');
      await sleep(durationMs, signal);
      const { profile } = (await post(session, 'Profiler.stop')) as Profiler.StopReturnType;
      return { profile, startedAtMs };
    } finally {
      session.disconnect();
      this.recording = false;
    }
  }
}
