/**
 * A first-in, first-out queue whose `shift` costs O(1): items are taken from a moving head, and the
 * array drops its taken slots in one copy once they are most of it. (`Array#shift` moves every
 * remaining item, which at thousands of items a turn is the whole cost of the queue.)
 */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** Removes and returns the oldest item; undefined when empty. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    // The taken slot must not keep its item alive until the next compaction.
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      // Emptied: start over in the same array (a queue that is drained on every event stays small).
      this.items.length = 0;
      this.head = 0;
    } else if (this.head >= 64 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
