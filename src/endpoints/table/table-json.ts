/**
 * A Table of a list as compact JSON, stitched from pieces: the table without its rows, each row's
 * cells, and each row's object (the PartialObjectMetadata kubectl asks for) from an encoding kept
 * per watch-cache object. Encoding a whole Table at once re-encoded every row's metadata, managed
 * fields included, on every `kubectl get`: most of its cost.
 */
import { Chunker } from '../../serialization/chunker.js';
import { escapeLikeGo } from '../../serialization/json-encode.js';
import type { Table } from './table-types.js';

/**
 * The Table's JSON in chunks of about `chunkBytes`: `table` must have been built with rows whose
 * object is null, and `rowObject(i)` gives the JSON of row i's object (without a trailing
 * newline). Undefined when the table has no rows to stitch (null rows).
 */
export function stitchTableJson(table: Table, rowObject: (index: number) => Uint8Array, chunkBytes: number): { chunks: Uint8Array[]; size: number } | undefined {
  if (table.rows === null) return undefined;
  const head = escapeLikeGo(JSON.stringify({ ...table, rows: [] }));
  const cut = head.lastIndexOf('[]');
  const chunker = new Chunker(chunkBytes);
  let size = 0;
  const add = (piece: Uint8Array): void => {
    chunker.add(piece);
    size += piece.length;
  };
  add(Buffer.from(head.slice(0, cut + 1)));
  table.rows.forEach((row, i) => {
    // `{"cells":[…],"object":null}` with the object put in place of null.
    const text = escapeLikeGo(JSON.stringify(row));
    add(Buffer.from(`${i > 0 ? ',' : ''}${text.slice(0, -'null}'.length)}`));
    add(rowObject(i));
    add(CLOSE_ROW);
  });
  add(Buffer.from(`${head.slice(cut + 1)}\n`));
  chunker.flush();
  return { chunks: chunker.take(), size };
}

const CLOSE_ROW = Buffer.from('}');
