/**
 * JSON watch events, `{"type":"ADDED","object":{...}}\n`, built around object bytes encoded once
 * (by the watch cache, per media type) so that every watcher shares that encoding and only this
 * small envelope is added.
 */

/** Event types upstream sends. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

function prefix(type: string): Buffer {
  return Buffer.from(`{"type":${JSON.stringify(type)},"object":`);
}

const PREFIXES: ReadonlyMap<string, Buffer> = new Map(
  (['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'] as const).map((t) => [t, prefix(t)]),
);

const SUFFIX = Buffer.from('}\n');

/**
 * One framed JSON watch event. `object` is the object's JSON encoding; a trailing newline (which
 * the compact encoder adds) is dropped, as upstream's embedding drops it. Does not modify `object`.
 */
export function frameJsonWatchEvent(type: WatchEventType, object: Uint8Array): Buffer {
  let end = object.length;
  while (end > 0 && (object[end - 1] === 0x0a || object[end - 1] === 0x20)) end--;
  return Buffer.concat([PREFIXES.get(type) ?? prefix(type), object.subarray(0, end), SUFFIX]);
}
