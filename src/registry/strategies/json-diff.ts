/**
 * A short, readable list of what differs between two JSON values, for error messages that show a
 * client which fields its update touched (upstream prints a Go struct diff at the same place).
 */
import { jsonEqual } from '../object.js';
import { isRecord } from './json-access.js';

/** Lines `- path: old` / `+ path: new` for each differing leaf, at most `limit` paths. */
export function jsonDiff(before: unknown, after: unknown, root: string, limit = 10): string {
  const lines: string[] = [];
  walk(before, after, root, lines, limit);
  return lines.join('\n');
}

function walk(before: unknown, after: unknown, path: string, lines: string[], limit: number): void {
  if (jsonEqual(before, after) || lines.length >= limit * 2) return;
  if (isRecord(before) && isRecord(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) walk(before[key], after[key], `${path}.${key}`, lines, limit);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((item, i) => walk(item, after[i], `${path}[${i}]`, lines, limit));
    return;
  }
  if (before !== undefined) lines.push(`- ${path}: ${JSON.stringify(before)}`);
  if (after !== undefined) lines.push(`+ ${path}: ${JSON.stringify(after)}`);
}
