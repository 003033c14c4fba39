/**
 * Work that runs once the server listens (bootstrap objects, start controllers). Each hook is a
 * `poststarthook/<name>` health check that fails until the hook has finished, so /readyz tells
 * when the server is fully up, as upstream.
 */
import type { HealthChecks } from '../health/health-checks.js';
import type { Logger } from './logger.js';

export type PostStartHook = (signal: AbortSignal) => Promise<void> | void;

type HookState = { readonly status: 'pending' } | { readonly status: 'done' } | { readonly status: 'failed'; readonly error: string };

export class PostStartHooks {
  private readonly hooks = new Map<string, { hook: PostStartHook; state: HookState }>();
  private started = false;

  constructor(
    private readonly health: HealthChecks,
    private readonly logger: Logger,
  ) {}

  /** Adds a hook; must be called before the server starts. Throws on a duplicate name. */
  add(name: string, hook: PostStartHook): void {
    if (this.started) throw new Error(`post-start hook ${name} added after the server started`);
    if (this.hooks.has(name)) throw new Error(`post-start hook ${name} is already registered`);
    const entry = { hook, state: { status: 'pending' } as HookState };
    this.hooks.set(name, entry);
    this.health.add({
      name: `poststarthook/${name}`,
      check: () => {
        if (entry.state.status === 'failed') throw new Error(entry.state.error);
        if (entry.state.status === 'pending') throw new Error('not finished');
      },
    });
  }

  /** Runs every hook concurrently; resolves when all have settled. A failure is logged and kept in its check. */
  async runAll(signal: AbortSignal): Promise<void> {
    this.started = true;
    await Promise.all(
      [...this.hooks].map(async ([name, entry]) => {
        try {
          await entry.hook(signal);
          entry.state = { status: 'done' };
        } catch (err) {
          entry.state = { status: 'failed', error: err instanceof Error ? err.message : String(err) };
          this.logger.error(`post-start hook ${name} failed`, err);
        }
      }),
    );
  }
}
