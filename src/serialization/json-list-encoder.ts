/**
 * Streams a JSON list (`{"kind":"PodList",...,"items":[...]}`) from items that are already encoded,
 * so that a large list is never one giant string and each object's bytes can come straight from the
 * watch cache. The output is batched into large chunks because every write to the socket is a
 * syscall: a 10 000-item list is a few hundred writes, not twenty thousand.
 */
import { Chunker } from './chunker.js';
import { joinedItem, type ListItemBytes } from './codec.js';
import { escapeLikeGo } from './json-encode.js';

/** Bytes per chunk handed to the caller, unless one item alone is larger. */
export const DEFAULT_LIST_CHUNK_BYTES = 64 * 1024;

export interface JsonListOptions {
  readonly chunkBytes?: number;
  /** Indented output (upstream's pretty JSON); items are re-indented, which costs a parse each. */
  readonly pretty?: boolean;
}

function envelopeText(envelope: Record<string, unknown>, pretty: boolean): { head: string; separator: string; tail: string; emptyTail: string } {
  const { items: _ignored, ...rest } = envelope;
  if (!pretty) {
    const json = escapeLikeGo(JSON.stringify(rest));
    const open = json === '{}' ? '{' : `${json.slice(0, -1)},`;
    return { head: `${open}"items":[`, separator: ',', tail: ']}\n', emptyTail: ']}\n' };
  }
  const json = escapeLikeGo(JSON.stringify(rest, null, 2));
  const open = json === '{}' ? '{' : `${json.slice(0, -2)},`;
  return { head: `${open}\n  "items": [`, separator: ',', tail: '\n  ]\n}', emptyTail: ']\n}' };
}

function reindent(item: Uint8Array): Buffer {
  const text = JSON.stringify(JSON.parse(Buffer.from(item.buffer, item.byteOffset, item.byteLength).toString('utf8')), null, 2);
  // Newlines only occur between tokens here (JSON escapes them inside strings).
  return Buffer.from(`\n    ${escapeLikeGo(text).replaceAll('\n', '\n    ')}`, 'utf8');
}

/**
 * Yields the list's bytes in chunks: the envelope's fields (in their order, `items` excluded), then
 * `items` from `items`. Each item is one object's JSON encoding; a trailing newline is dropped.
 * The output matches upstream's encoding of the whole list, including `"items":[]` when empty and
 * the final newline of compact output. Does not modify `envelope` or the item buffers.
 */
export async function* encodeJsonList(
  envelope: Record<string, unknown>,
  items: Iterable<ListItemBytes> | AsyncIterable<ListItemBytes>,
  options: JsonListOptions = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const pretty = options.pretty === true;
  const text = envelopeText(envelope, pretty);
  const chunker = new Chunker(options.chunkBytes ?? DEFAULT_LIST_CHUNK_BYTES);
  const separator = Buffer.from(text.separator);
  chunker.add(Buffer.from(text.head, 'utf8'));
  let first = true;
  const addWhole = (item: Uint8Array): void => {
    let end = item.length;
    while (end > 0 && item[end - 1] === 0x0a) end--;
    const body = end === item.length ? item : item.subarray(0, end);
    chunker.add(pretty ? reindent(body) : body);
  };
  const add = (item: ListItemBytes): void => {
    if (!first) chunker.add(separator);
    first = false;
    if (!Array.isArray(item) || pretty) return addWhole(joinedItem(item));
    // Pieces: all but the last go as they are; the last loses the trailing newline.
    for (let i = 0; i < item.length - 1; i++) chunker.add(item[i]!);
    addWhole(item[item.length - 1]!);
  };
  // An array of items is walked without an await per item: `for await` over a plain iterable
  // costs a promise and a microtask turn per item, ~10,000 of them for a large list.
  if (Symbol.asyncIterator in items) {
    for await (const item of items) {
      add(item);
      if (chunker.hasReady) yield* chunker.take();
    }
  } else {
    for (const item of items) {
      add(item);
      if (chunker.hasReady) yield* chunker.take();
    }
  }
  chunker.add(Buffer.from(first ? text.emptyTail : text.tail, 'utf8'));
  chunker.flush();
  yield* chunker.take();
}
