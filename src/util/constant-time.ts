/** Comparison of secrets that takes no longer for a closer guess. */
import { timingSafeEqual } from 'node:crypto';

/** Whether two texts are equal, compared in constant time (for texts of equal length). */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
