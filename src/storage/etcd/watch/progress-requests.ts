/**
 * Turns Watch.requestProgress() calls into progress batches, in the mode the server allows (see
 * progress-mode.ts). Calls that arrive while one is being answered are answered together.
 */
import type { EtcdConnection } from '../etcd-connection.js';
import type { ProgressMode } from './progress-mode.js';
import { rangeUnchanged, type KeyRange } from './progress-verifier.js';

/** What the progress logic needs from its watch. */
export interface ProgressSubject {
  /** Everything up to this revision has been handed to the consumer. */
  readonly lastRevision: number;
  /** Asks the current stream (if any, once its watcher exists) for a server progress response. */
  sendProgressRequest(): void;
  /** Hands the consumer a batch without events at `revision`. */
  reportProgress(revision: number): void;
}

export class ProgressRequests {
  /** Server mode: a request was sent (or must be, once a watcher exists) and is unanswered. */
  private awaitingServer = false;
  /** Verified mode: a request whose current revision could not be read yet. */
  private needsTarget = false;
  /** Verified mode: the revision to report once it is proven. */
  private target: number | undefined;
  private checking = false;
  private checkAgain = false;

  constructor(
    private readonly conn: EtcdConnection,
    private readonly range: KeyRange,
    private readonly mode: () => Promise<ProgressMode>,
    private readonly subject: ProgressSubject,
    private readonly signal: AbortSignal,
  ) {}

  /** Starts answering a request; never throws, and failures only delay the answer. */
  request(): void {
    void this.mode().then((mode) => (mode === 'server' ? this.requestFromServer() : this.requestVerified()));
  }

  /** A new stream's watcher exists: re-send what the old stream lost. */
  watcherCreated(): void {
    if (this.awaitingServer) this.subject.sendProgressRequest();
    if (this.needsTarget) this.requestVerified();
    else if (this.target !== undefined) this.check();
  }

  /** A batch of events was delivered: a verified request may now be answerable. */
  eventsDelivered(): void {
    if (this.target !== undefined) this.check();
  }

  /** etcd answered a progress request on the stream. */
  serverAnswered(revision: number): void {
    if (!this.awaitingServer) return;
    this.awaitingServer = false;
    this.subject.reportProgress(revision);
  }

  private requestFromServer(): void {
    this.awaitingServer = true;
    this.subject.sendProgressRequest();
  }

  private requestVerified(): void {
    this.needsTarget = true;
    this.conn.currentRevision().then(
      (revision) => {
        this.needsTarget = false;
        this.target = Math.max(this.target ?? 0, revision);
        this.check();
      },
      // etcd is unreachable; the next watcher creation tries again.
      () => undefined,
    );
  }

  /** Reports the target once the watch has reached it or the range provably did not change. */
  private check(): void {
    if (this.checking) {
      this.checkAgain = true;
      return;
    }
    this.checking = true;
    void this.runChecks()
      .catch(() => undefined)
      .finally(() => {
        this.checking = false;
        // A call that came in between the last loop test and this line.
        if (this.checkAgain) this.check();
      });
  }

  private async runChecks(): Promise<void> {
    do {
      this.checkAgain = false;
      const target = this.target;
      if (target === undefined || this.signal.aborted) return;
      const from = this.subject.lastRevision;
      if (from >= target) {
        this.target = undefined;
        this.subject.reportProgress(from);
        return;
      }
      let unchanged: boolean;
      try {
        unchanged = await rangeUnchanged(this.conn, this.range, from, target);
      } catch {
        // Unreachable, or `from` compacted: wait for the next event or watcher creation.
        this.checkAgain = false;
        return;
      }
      if (this.subject.lastRevision !== from) {
        this.checkAgain = true;
      } else if (unchanged) {
        if (this.target === target) this.target = undefined;
        else this.checkAgain = true;
        this.subject.reportProgress(target);
      }
      // Otherwise events are on their way: eventsDelivered() checks again.
    } while (this.checkAgain);
  }
}
