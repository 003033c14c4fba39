/**
 * The node options a script's first line gives, so that the benchmark starts the binary with the
 * options it runs with when executed (`#!/usr/bin/env -S node --max-semi-space-size=64`), while
 * still choosing the node (this one's) and adding its own options after them.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** Long enough for any first line the launcher has; a longer one is refused, not cut. */
const FIRST_LINE_LIMIT = 1024;

/** The options after `node` in `firstLine`, a `#!` line naming node directly or through env. */
export function nodeOptionsOf(firstLine: string): string[] {
  if (!firstLine.startsWith('#!')) return [];
  const words = firstLine.slice(2).trim().split(/\s+/);
  let at = 0;
  if (words[at]?.endsWith('/env')) {
    at++;
    if (words[at] === '-S') at++;
  }
  if (!/(^|\/)node$/.test(words[at] ?? '')) throw new Error(`the first line does not run node: ${firstLine}`);
  return words.slice(at + 1);
}

/** The node options in the first line of the script at `path` ([] when it has no `#!` line). */
export function scriptNodeOptions(path: string): string[] {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(FIRST_LINE_LIMIT);
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8');
    const end = text.indexOf('\n');
    if (end < 0 && text.startsWith('#!')) throw new Error(`${path}: no end to its first line within ${FIRST_LINE_LIMIT} bytes`);
    return nodeOptionsOf(end < 0 ? text : text.slice(0, end));
  } finally {
    closeSync(fd);
  }
}
