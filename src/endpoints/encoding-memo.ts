/**
 * The response encodings kept on watch-cache entries, bounded in total size.
 *
 * A get or list answers from an entry's memoized encoding, so an object is encoded once per
 * revision however often it is read. Unbounded, the memo would grow by about the JSON size of
 * everything ever read (one `kubectl get -A` of a large cluster) and stay there for as long as the
 * objects do. So the memo keeps at most a budget of bytes and forgets the oldest memoized
 * encodings first: what is read again soon is still served from it, and memory stays bounded.
 */

/** One memoized encoding, in the order they were made. */
interface Held {
  readonly encodings: Map<string, Uint8Array>;
  readonly key: string;
  readonly bytes: Uint8Array;
}

export class EncodingMemo {
  private held: (Held | undefined)[] = [];
  private head = 0;
  private total = 0;

  constructor(private readonly budgetBytes: number) {}

  /** Bytes held now (for tests and metrics). */
  get size(): number {
    return this.total;
  }

  /** The encoding memoized in `encodings` under `key`, else `encode()`'s, memoized within the budget. */
  get(encodings: Map<string, Uint8Array>, key: string, encode: () => Uint8Array): Uint8Array {
    const memoized = encodings.get(key);
    if (memoized !== undefined) return memoized;
    const bytes = encode();
    if (bytes.length > this.budgetBytes) return bytes;
    encodings.set(key, bytes);
    this.held.push({ encodings, key, bytes });
    this.total += bytes.length;
    while (this.total > this.budgetBytes) this.forgetOldest();
    return bytes;
  }

  private forgetOldest(): void {
    const oldest = this.held[this.head]!;
    this.held[this.head++] = undefined;
    this.total -= oldest.bytes.length;
    // Only if it is still this encoding: the same key may have been memoized again since.
    if (oldest.encodings.get(oldest.key) === oldest.bytes) oldest.encodings.delete(oldest.key);
    // Compact now and then rather than shifting on every eviction (O(n) each).
    if (this.head >= 1024 && this.head * 2 >= this.held.length) {
      this.held = this.held.slice(this.head);
      this.head = 0;
    }
  }
}

/**
 * The process's memo of response encodings: 32 MiB, room for a list of ~25,000 ConfigMaps of
 * 1 KiB in one encoding; beyond that, reads encode again (~5 µs per 1 KiB object).
 */
export const responseEncodings = new EncodingMemo(32 * 1024 * 1024);
