/**
 * A doubly linked list whose entries are removed by the handle `push` returned, in any order.
 *
 * For collections that take and drop an entry per request. A Set would do the same work, but a Set
 * that grows and shrinks swaps its table now and then, and each table it drops still holds its
 * entries and a link to the next. Once a dropped table is in the old generation, young-generation
 * collections count everything it reaches as alive, so every entry (and what it reaches) is kept
 * until a full collection. A removed link here is emptied and holds nothing.
 */
export interface ListLink<T> {
  value: T | undefined;
  previous: ListLink<T> | undefined;
  next: ListLink<T> | undefined;
}

export class LinkedList<T> {
  /** The ends: `head.next` is the oldest entry, `tail.previous` the newest. */
  private readonly head: ListLink<T> = { value: undefined, previous: undefined, next: undefined };
  private readonly tail: ListLink<T> = { value: undefined, previous: this.head, next: undefined };
  private count = 0;

  constructor() {
    this.head.next = this.tail;
  }

  get size(): number {
    return this.count;
  }

  /** Appends `value`; the link is its handle for {@link remove}. */
  push(value: T): ListLink<T> {
    const previous = this.tail.previous!;
    const link: ListLink<T> = { value, previous, next: this.tail };
    previous.next = link;
    this.tail.previous = link;
    this.count++;
    return link;
  }

  /** Removes the entry of `link`; false if it was already removed. */
  remove(link: ListLink<T>): boolean {
    if (link.previous === undefined) return false;
    link.previous.next = link.next;
    link.next!.previous = link.previous;
    link.value = link.previous = link.next = undefined;
    this.count--;
    return true;
  }

  /** The entries now, oldest first (a copy: removing while walking it is safe). */
  values(): T[] {
    return this.links().map((link) => link.value!);
  }

  /** The links now, oldest first (a copy: removing while walking it is safe). */
  links(): Array<ListLink<T>> {
    const links: Array<ListLink<T>> = [];
    for (let link = this.head.next!; link !== this.tail; link = link.next!) links.push(link);
    return links;
  }
}
