/**
 * Helpers for functions that return promises without being `async`.
 *
 * An `async` function that returns another function's promise makes a promise of its own and
 * adopts the inner one, which takes three more turns of the microtask queue; one that awaits a
 * value that is not a promise still waits a turn. The handler chain had seven such layers on every
 * request. These helpers keep the contract (a promise, failures as rejections) without that cost.
 */

/** `fn` with its synchronous throws turned into rejected promises. */
export function rejectingThrows<A, T>(fn: (arg: A) => Promise<T>): (arg: A) => Promise<T> {
  return (arg) => {
    try {
      return fn(arg);
    } catch (err) {
      return Promise.reject(err);
    }
  };
}

/** Whether a result that may or may not have been computed yet is still to come. */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/**
 * Calls `after` once `work` settles either way, passing its failure on; `work` is called here,
 * so that a synchronous throw also runs `after`.
 */
export function finallyAfter<T>(work: () => Promise<T>, after: () => void): Promise<T> {
  let promise: Promise<T>;
  try {
    promise = work();
  } catch (err) {
    after();
    return Promise.reject(err);
  }
  return promise.then(
    (value) => {
      after();
      return value;
    },
    (err: unknown) => {
      after();
      throw err;
    },
  );
}

/** What {@link firstDeciding} gives when no answer decided: every answer, in the order asked. */
export class NoneDecided<R> {
  constructor(readonly answers: readonly R[]) {}
}

/**
 * Asks `askers` in order, `ask(asker, arg)` each, until an answer `decides`, and returns that
 * answer; when none does, {@link NoneDecided} with all of them, so that the caller can say why.
 * Synchronous for as long as the answers are, so that a chain whose parts know at once (a client
 * certificate, system:masters) waits for nothing; from the first promise on, the rest is asked in
 * its continuation. `arg` is there so that `ask` and `decides` need not be closures made per call:
 * the authentication and authorization unions ask on every request, and such closures, with the
 * arrays they filled, were ~0.7 KB of the ~10 KB a get allocated (bench/RESULTS.md,
 * twenty-seventh session). Nothing is allocated until an answer does not decide.
 */
export function firstDeciding<A, T, R, D extends R>(
  askers: readonly A[],
  arg: T,
  ask: (asker: A, arg: T) => R | Promise<R>,
  decides: (answer: R) => answer is D,
): D | NoneDecided<R> | Promise<D | NoneDecided<R>>;
export function firstDeciding<A, T, R>(
  askers: readonly A[],
  arg: T,
  ask: (asker: A, arg: T) => R | Promise<R>,
  decides: (answer: R) => boolean,
): R | NoneDecided<R> | Promise<R | NoneDecided<R>>;
export function firstDeciding<A, T, R>(
  askers: readonly A[],
  arg: T,
  ask: (asker: A, arg: T) => R | Promise<R>,
  decides: (answer: R) => boolean,
): R | NoneDecided<R> | Promise<R | NoneDecided<R>> {
  return askFrom(askers, arg, ask, decides, 0, undefined);
}

function askFrom<A, T, R>(
  askers: readonly A[],
  arg: T,
  ask: (asker: A, arg: T) => R | Promise<R>,
  decides: (answer: R) => boolean,
  from: number,
  passed: R[] | undefined,
): R | NoneDecided<R> | Promise<R | NoneDecided<R>> {
  for (let i = from; i < askers.length; i++) {
    const answer = ask(askers[i]!, arg);
    if (isPromise(answer)) {
      return answer.then((a) => (decides(a) ? a : askFrom(askers, arg, ask, decides, i + 1, [...(passed ?? []), a])));
    }
    if (decides(answer)) return answer;
    (passed ??= []).push(answer);
  }
  return new NoneDecided(passed ?? []);
}
