/** Turns a {@link RequestPattern} into the i-th concrete request. */
import type { OutgoingRequest } from './https-client.js';
import { wallClock } from './https-client.js';
import type { RequestPattern } from './jobs.js';

const NUMBER_WIDTH = 7;

/** The `i`-th request (0-based) of `pattern`; `{t}` is stamped now. */
export function requestAt(pattern: RequestPattern, i: number): OutgoingRequest {
  const n = pattern.first + (pattern.cycle ? i % pattern.cycle : i);
  const number = String(n).padStart(NUMBER_WIDTH, '0');
  const fill = (text: string): string => {
    let out = text.replaceAll('{n}', number);
    if (out.includes('{t}')) out = out.replaceAll('{t}', wallClock().toFixed(3));
    return out;
  };
  return {
    method: pattern.method,
    path: fill(pattern.path),
    ...(pattern.headers ? { headers: pattern.headers } : {}),
    ...(pattern.body !== undefined ? { body: fill(pattern.body) } : {}),
  };
}
