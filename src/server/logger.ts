/**
 * The server's log: klog-like lines on a stream (stderr by default), filtered by `-v` verbosity.
 * It also reports whether writing is blocked, which the `log` health check surfaces.
 */
import type { Writable } from 'node:stream';

export interface Logger {
  /** True when messages at this verbosity level are written (level 0 always is). */
  enabled(level: number): boolean;
  info(message: string, level?: number): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
  /** False when the log has been blocked (its stream not draining) for too long. */
  isHealthy(): boolean;
  /** Changes `-v` while the server runs (PUT /debug/flags/v). */
  setVerbosity(level: number): void;
}

export interface ConsoleLoggerOptions {
  readonly verbosity?: number;
  readonly stream?: Writable;
  /** How long the stream may refuse writes before the log counts as blocked. Default: 2 minutes, as upstream. */
  readonly blockedAfterMs?: number;
  readonly now?: () => number;
}

/** Writes `I0102 15:04:05.000000 message` lines, like upstream's klog text format. */
export class ConsoleLogger implements Logger {
  private verbosity: number;
  private readonly stream: Writable;
  private readonly blockedAfterMs: number;
  private readonly now: () => number;
  /** When the stream last refused a write without draining since; undefined while it drains. */
  private blockedSince: number | undefined;

  constructor(options: ConsoleLoggerOptions = {}) {
    this.verbosity = options.verbosity ?? 0;
    this.stream = options.stream ?? process.stderr;
    this.blockedAfterMs = options.blockedAfterMs ?? 120_000;
    this.now = options.now ?? Date.now;
  }

  enabled(level: number): boolean {
    return level <= this.verbosity;
  }

  info(message: string, level = 0): void {
    if (this.enabled(level)) this.write('I', message);
  }

  warn(message: string): void {
    this.write('W', message);
  }

  error(message: string, err?: unknown): void {
    const detail = err === undefined ? '' : `: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    this.write('E', message + detail);
  }

  isHealthy(): boolean {
    return this.blockedSince === undefined || this.now() - this.blockedSince < this.blockedAfterMs;
  }

  setVerbosity(level: number): void {
    this.verbosity = level;
  }

  private write(severity: string, message: string): void {
    const line = `${severity}${timestamp(new Date(this.now()))} ${message}\n`;
    if (!this.stream.write(line) && this.blockedSince === undefined) {
      this.blockedSince = this.now();
      this.stream.once('drain', () => {
        this.blockedSince = undefined;
      });
    }
  }
}

/** A logger that drops everything; for tests and embedding. */
export class SilentLogger implements Logger {
  enabled(): boolean {
    return false;
  }
  info(): void {}
  warn(): void {}
  error(): void {}
  setVerbosity(): void {}
  isHealthy(): boolean {
    return true;
  }
}

function timestamp(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getMonth() + 1)}${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}000`;
}
