/**
 * The server under test: either a Capstan the benchmark started (and may restart on the same data
 * directory, for the startup and memory figures) or another server named by a kubeconfig, which
 * the benchmark only sends requests to.
 */
import { startCapstan, type CapstanProcess, type CapstanStartOptions } from './capstan-process.js';
import type { Target } from './target.js';

export class ServerHandle {
  private constructor(
    private current: CapstanProcess | undefined,
    private readonly externalTarget: Target | undefined,
    private readonly startOptions: CapstanStartOptions | undefined,
  ) {}

  /** Starts Capstan with `options`. */
  static async own(options: CapstanStartOptions): Promise<ServerHandle> {
    return new ServerHandle(await startCapstan(options), undefined, options);
  }

  /** A server someone else runs. */
  static external(target: Target): ServerHandle {
    return new ServerHandle(undefined, target, undefined);
  }

  get target(): Target {
    return this.externalTarget ?? this.current!.target;
  }

  /** The Capstan process, when the benchmark runs it. */
  get capstan(): CapstanProcess | undefined {
    return this.current;
  }

  /** Stops Capstan and starts it again on the same data directory; returns the new process. */
  async restart(): Promise<CapstanProcess> {
    if (!this.startOptions) throw new Error('cannot restart a server the benchmark did not start');
    await this.current?.stop();
    this.current = undefined;
    this.current = await startCapstan(this.startOptions);
    return this.current;
  }

  async stop(): Promise<void> {
    await this.current?.stop();
    this.current = undefined;
  }
}
