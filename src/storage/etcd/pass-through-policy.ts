/**
 * A fault-handling policy for the etcd3 client that runs each call once, as it is.
 *
 * etcd3 wraps every call in policies of the `cockatiel` library: by default a global policy that
 * retries any "recoverable" failure (which includes Unavailable, so a transaction that may already
 * have been applied is sent again) and a per-member circuit breaker. The backend decides about
 * retries itself, so it needs a policy that does nothing. The type comes from etcd3's own options
 * rather than from cockatiel, which is etcd3's dependency and not ours.
 */
import type { IOptions } from 'etcd3';

/** The policy type etcd3's `faultHandling.global` accepts. */
export type EtcdFaultPolicy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;

/** A policy whose `execute` calls the function once and reports no events. */
export function passThroughPolicy(): EtcdFaultPolicy {
  const noEvents = () => ({ dispose: () => undefined });
  const policy = {
    onSuccess: noEvents,
    onFailure: noEvents,
    execute: async <T>(fn: (context: { signal: AbortSignal }) => PromiseLike<T> | T, signal?: AbortSignal): Promise<T> =>
      fn({ signal: signal ?? new AbortController().signal }),
  };
  // `_altReturn` is a type-only member of cockatiel's IPolicy that never exists at run time.
  return policy as unknown as EtcdFaultPolicy;
}
