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

/**
 * Asks `askers` in order until an answer `decides`, and returns that answer (undefined when none
 * did); `passed` hears each answer that does not decide, in order. Synchronous for as long as
 * the answers are, so that a chain whose parts know at once (a client certificate, AlwaysAllow)
 * waits for nothing; from the first promise on, the rest is asked in its continuation.
 */
export function firstDeciding<A, R>(
  askers: readonly A[],
  ask: (asker: A) => R | Promise<R>,
  decides: (answer: R) => boolean,
  passed: (answer: R) => void,
  from = 0,
): R | undefined | Promise<R | undefined> {
  for (let i = from; i < askers.length; i++) {
    const answer = ask(askers[i]!);
    if (isPromise(answer)) {
      return answer.then((a) => {
        if (decides(a)) return a;
        passed(a);
        return firstDeciding(askers, ask, decides, passed, i + 1);
      });
    }
    if (decides(answer)) return answer;
    passed(answer);
  }
  return undefined;
}

