/**
 * Joins the many small pieces of a streamed body (list items, separators, Protobuf tags) into
 * chunks of about a given size, because each chunk is a socket write and each write a system call.
 * A piece at least that size passes through uncopied. Pieces are held by reference until their
 * chunk is complete and then copied once into a buffer of exactly the chunk's size: a small list
 * costs a buffer of its own size, not one of the chunk size.
 */
export class Chunker {
  private pieces: Uint8Array[] = [];
  private used = 0;
  /** Chunks complete and not yet taken. */
  private readonly ready: Uint8Array[] = [];

  constructor(private readonly size: number) {}

  /** Adds a piece, which must not change until its chunk is taken. */
  add(piece: Uint8Array): void {
    if (piece.length >= this.size) {
      this.flush();
      this.ready.push(piece);
      return;
    }
    if (this.used + piece.length > this.size) this.flush();
    this.pieces.push(piece);
    this.used += piece.length;
  }

  /** Completes the partly filled chunk, if any. */
  flush(): void {
    if (this.used === 0) return;
    this.ready.push(this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.used));
    this.pieces = [];
    this.used = 0;
  }

  /** Whether complete chunks wait to be taken. */
  get hasReady(): boolean {
    return this.ready.length > 0;
  }

  /** Takes the complete chunks. */
  take(): Uint8Array[] {
    return this.ready.splice(0);
  }
}

/** `pieces` joined into chunks of about `size` bytes (see Chunker). */
export function* inChunks(pieces: Iterable<Uint8Array>, size: number): Generator<Uint8Array> {
  const chunker = new Chunker(size);
  for (const piece of pieces) {
    chunker.add(piece);
    if (chunker.hasReady) yield* chunker.take();
  }
  chunker.flush();
  yield* chunker.take();
}
