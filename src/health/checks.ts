/** The built-in health checks. Each is small; the server decides which endpoints get which. */
import type { HealthCheck } from './health-checks.js';

/** Always passes: the process answers requests. */
export const pingCheck: HealthCheck = { name: 'ping', check: () => {} };

/** Fails when the log is blocked (upstream's `log` check). */
export function logCheck(logger: { isHealthy(): boolean }): HealthCheck {
  return {
    name: 'log',
    check: () => {
      if (!logger.isHealthy()) throw new Error('logging blocked');
    },
  };
}

/**
 * Fails once shutdown has begun, so load balancers stop sending new requests while in-flight ones
 * finish (readyz only).
 */
export function shutdownCheck(isShuttingDown: () => boolean): HealthCheck {
  return {
    name: 'shutdown',
    check: () => {
      if (isShuttingDown()) throw new Error('process is shutting down');
    },
  };
}

/**
 * Asks the store whether it answers within `timeoutMs` (upstream's `etcd` and `etcd-readiness`
 * checks, bounded by --store-healthcheck-timeout and --store-readycheck-timeout).
 */
export function storeCheck(
  name: string,
  checkHealth: (signal: AbortSignal) => Promise<void>,
  timeoutMs: number,
): HealthCheck {
  return {
    name,
    check: async (signal) => {
      const deadline = timeoutMs > 0 ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : signal;
      await Promise.race([
        checkHealth(deadline),
        new Promise<never>((_, reject) => {
          const fail = () => reject(new Error(`store did not answer within ${timeoutMs}ms`));
          if (deadline.aborted) fail();
          deadline.addEventListener('abort', fail, { once: true });
        }),
      ]);
    },
  };
}

/** A check backed by a synchronous predicate with a failure message (e.g. informer sync). */
export function conditionCheck(name: string, ok: () => boolean, failure: string): HealthCheck {
  return {
    name,
    check: () => {
      if (!ok()) throw new Error(failure);
    },
  };
}
