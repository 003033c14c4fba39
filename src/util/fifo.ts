/**
 * A first-in, first-out queue whose `shift` costs O(1): items are taken from a moving head, and the
 * array drops its taken slots in one copy once they are most of it. (`Array#shift` moves every
 * remaining item, which at thousands of items a turn is the whole cost of the queue.)
 *
 * The array keeps its room when the queue empties: a queue filled and drained on every event (the
 * watch flushes, a thousand a time) would otherwise grow a new array each time, and V8 frees an
 * array's room when its length is set to 0. Past KEPT_ROOM slots the room goes, so that one burst
 * does not hold memory for good.
 */
const KEPT_ROOM = 4096;

export class Fifo<T> {
  private readonly items: (T | undefined)[] = [];
  private head = 0;
  private tail = 0;

  get length(): number {
    return this.tail - this.head;
  }

  push(item: T): void {
    if (this.tail < this.items.length) this.items[this.tail] = item;
    else this.items.push(item);
    this.tail++;
  }

  /** Removes and returns the oldest item; undefined when empty. */
  shift(): T | undefined {
    if (this.head >= this.tail) return undefined;
    const item = this.items[this.head];
    // The taken slot must not keep its item alive until it is written again.
    this.items[this.head++] = undefined;
    if (this.head === this.tail) {
      // Emptied: start over at the array's start (every slot is already cleared).
      this.head = 0;
      this.tail = 0;
      if (this.items.length > KEPT_ROOM) this.items.length = 0;
    } else if (this.head >= 64 && this.head * 2 >= this.tail) {
      this.items.copyWithin(0, this.head, this.tail);
      this.items.fill(undefined, this.tail - this.head, this.tail);
      this.tail -= this.head;
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items.length = 0;
    this.head = 0;
    this.tail = 0;
  }
}
