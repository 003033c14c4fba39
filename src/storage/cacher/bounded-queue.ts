/** A FIFO queue that refuses items beyond a fixed capacity instead of growing. */
export class BoundedQueue<E> {
  private items: E[] = [];
  private head = 0;

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.items.length - this.head;
  }

  /** Adds an item; returns false (and adds nothing) when the queue is full. */
  push(item: E): boolean {
    if (this.length >= this.capacity) return false;
    this.items.push(item);
    return true;
  }

  /** Removes and returns the oldest item. */
  shift(): E | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.head++;
    if (this.head === this.items.length) {
      this.items.length = 0; // reuse the array: an idle watcher empties its queue on every event
      this.head = 0;
    } else if (this.head >= 64 && this.head * 2 >= this.items.length) {
      // Reclaim consumed slots in one go instead of an O(n) shift per item.
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
