/**
 * The registry of named health checks behind /healthz, /livez and /readyz. Components add their
 * own (the store adds `etcd`, post-start hooks add `poststarthook/<name>`); the endpoints list them
 * in a stable order: plain checks, then post-start hooks, then `shutdown` last, as upstream does.
 */

/** One named check. It passes by returning, fails by throwing (the message is only logged). */
export interface HealthCheck {
  readonly name: string;
  check(signal: AbortSignal): void | Promise<void>;
}

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export const ALL_ENDPOINTS: readonly HealthEndpoint[] = ['healthz', 'livez', 'readyz'];

/**
 * --livez-grace-period: until `untilMs` (on `now`'s clock), /livez counts every check as passing,
 * so that a slow startup (post-start hooks still running, or failed) does not get the server
 * restarted by a liveness probe. /healthz and /readyz are unaffected.
 */
export interface LivezGrace {
  readonly untilMs: number;
  readonly now: () => number;
}

export class HealthChecks {
  private readonly entries: Array<{ check: HealthCheck; endpoints: ReadonlySet<HealthEndpoint> }> = [];

  constructor(private readonly livezGrace?: LivezGrace) {}

  /**
   * Adds a check to the given endpoints (default: all three). Throws if a check of that name is
   * already registered, since names are the URLs of the single-check endpoints.
   */
  add(check: HealthCheck, endpoints: readonly HealthEndpoint[] = ALL_ENDPOINTS): this {
    if (this.entries.some((e) => e.check.name === check.name)) throw new Error(`health check ${check.name} is already registered`);
    this.entries.push({ check, endpoints: new Set(endpoints) });
    return this;
  }

  /** The checks of one endpoint in display order. */
  checksFor(endpoint: HealthEndpoint): HealthCheck[] {
    const checks = this.entries
      .filter((e) => e.endpoints.has(endpoint))
      .map((e, index) => ({ check: e.check, index }))
      .sort((a, b) => rank(a.check.name) - rank(b.check.name) || a.index - b.index)
      .map((e) => e.check);
    const grace = this.livezGrace;
    if (endpoint !== 'livez' || grace === undefined) return checks;
    return checks.map(({ name, check }) => ({ name, check: (signal) => (grace.now() < grace.untilMs ? undefined : check(signal)) }));
  }
}

function rank(name: string): number {
  if (name === 'shutdown') return 2;
  return name.startsWith('poststarthook/') ? 1 : 0;
}
