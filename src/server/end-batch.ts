/**
 * Complete read responses leave together, once per turn of the event loop, instead of each the
 * moment its handler finishes.
 *
 * Each response is one socket write, and on these VMs a write to a peer that sleeps in epoll costs
 * a wake-up (an inter-processor interrupt through the hypervisor) on top of the system call. Written
 * as their handlers finish, the responses of one turn are spread over the whole turn, so the
 * client is asleep again by the next one and nearly every write pays that. Written back to back at
 * the end of the turn, the first write wakes the client and the rest find it running; the client
 * also takes in a batch of responses per wake-up. With 64 clients getting objects this cut the
 * server's CPU per request by a sixth (bench/RESULTS.md, sixth session). The delay is the rest of
 * the turn, which the handlers' own work already took.
 *
 * Only reads come here (write-response.ts): the writes of one group commit all finish when it
 * lands, and so already leave back to back.
 */
import type { ServerResponse } from 'node:http';
import type { Response } from './request-context.js';

/**
 * Responses waiting for the end of this turn and their bodies, in the order they were finished.
 * Arrays swapped for fresh ones each turn, not a Map cleared: a cleared Map links its old table
 * to the new one, and an old table that reached the old generation would keep every later
 * turn's responses alive until a full collection (see live-request-context.ts).
 */
let waiting: Response[] = [];
let bodies: Uint8Array[] = [];

/** Marks a response handed to this batch, so that nothing else writes to it meanwhile. */
const ENDING = Symbol('ending this turn');
type Marked = Response & { [ENDING]?: true };

/** Ends `res` with `body` at the end of this turn of the event loop. */
export function endThisTurn(res: Response, body: Uint8Array): void {
  if (waiting.length === 0) setImmediate(endWaiting);
  (res as Marked)[ENDING] = true;
  waiting.push(res);
  bodies.push(body);
}

/** Whether `res` has been given its body and waits to be ended. */
export function isEnding(res: Response): boolean {
  return (res as Marked)[ENDING] === true && !res.writableEnded;
}

function endWaiting(): void {
  const responses = waiting;
  const theirBodies = bodies;
  waiting = [];
  bodies = [];
  for (let i = 0; i < responses.length; i++) {
    const res = responses[i]!;
    // Its client may have gone meanwhile; the response's 'error' listener hears of a failed write.
    if (res.destroyed) continue;
    try {
      // Both response kinds take end(body); the cast only picks one signature.
      (res as ServerResponse).end(theirBodies[i]);
    } catch {
      // One response's failure must not hold back the others'; its connection reports it.
    }
  }
}

/**
 * Resolves once the responses waiting now have been written: at once when none waits, else after
 * this turn's check phase, where they leave. A stopping server waits for it before it closes its
 * connections, since a response here is no longer counted as in flight (request-info.ts).
 */
export function batchWritten(): Promise<void> {
  if (waiting.length === 0) return Promise.resolve();
  return new Promise((resolve) => setImmediate(resolve));
}
