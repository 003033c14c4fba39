/**
 * Waiting in a test for state that no event announces (a controller's work, a watch's internal
 * revision): polled within a bound, so the test fails naming what it waited for instead of hanging
 * or sleeping a fixed time.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';

const POLL_MS = 5;
const DEFAULT_WAIT_MS = 2000;

/** Resolves once `condition` holds; fails the test naming `what` when it still does not after `waitMs`. */
export async function eventually(what: string, condition: () => boolean | Promise<boolean>, waitMs = DEFAULT_WAIT_MS): Promise<void> {
  for (const end = Date.now() + waitMs; Date.now() < end; await delay(POLL_MS)) {
    if (await condition()) return;
  }
  if (await condition()) return;
  assert.fail(`still not true after ${waitMs} ms: ${what}`);
}
