/**
 * Answers "which revision is the oldest one still readable?" for an etcd cluster.
 *
 * etcd keeps that number (its compactMainRev) to itself: no RPC reports it. Upstream Kubernetes
 * records its own compactions in a key (`compact_rev_key`), which costs a write and a revision per
 * compaction and does not see compactions made by anyone else (etcd's --auto-compaction, an
 * operator's `etcdctl compact`). This tracker asks etcd instead: a range read at revision r fails
 * with "required revision has been compacted" exactly when r is below compactMainRev, so one
 * read at a known lower bound confirms it, and a binary search between that bound and the current
 * revision finds a newer one in about log2(revisions) reads. The bound only grows: from our own
 * compactions, from reads that failed as compacted, and from each search.
 *
 * Worked example: the bound is 1. Someone compacts at 700 and the current revision is 1000.
 * A probe at 1 fails, so the search looks in [2, 1000]: 501 readable, 251 not, ... 700 readable,
 * 699 not: the answer is 700 (10 probes) and the bound becomes 700; the next call costs one probe.
 */

/** Whether a read at a revision succeeds ('readable') or fails as compacted. */
export type RevisionProbe = (revision: number) => Promise<'readable' | 'compacted'>;

export class CompactionTracker {
  /** Every revision below this one is known to be compacted. */
  private lowerBound = 1;
  /** Concurrent callers share one search. */
  private inFlight: Promise<number> | undefined;

  constructor(
    private readonly probe: RevisionProbe,
    private readonly currentRevision: () => Promise<number>,
  ) {}

  /** Records a compaction this process made: everything below `revision` is gone. */
  noteCompaction(revision: number): void {
    this.lowerBound = Math.max(this.lowerBound, revision);
  }

  /** Records that a read at `revision` failed as compacted. */
  noteCompactedRead(revision: number): void {
    this.lowerBound = Math.max(this.lowerBound, revision + 1);
  }

  /**
   * The oldest readable revision (1 when nothing was ever compacted).
   *
   * @throws whatever the probe or currentRevision throw (the caller maps it).
   */
  compactedRevision(): Promise<number> {
    this.inFlight ??= this.search().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async search(): Promise<number> {
    let low = this.lowerBound;
    if ((await this.probe(low)) === 'readable') return low;
    // Invariant: `low` is compacted, `high` is readable (the current revision always is).
    let high = await this.currentRevision();
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if ((await this.probe(middle)) === 'readable') high = middle;
      else low = middle;
    }
    this.lowerBound = Math.max(this.lowerBound, high);
    return this.lowerBound;
  }
}
