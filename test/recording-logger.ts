/** A logger for tests that keeps the error lines it is given and drops the rest. */
import type { Logger } from '../src/server/logger.js';

export class RecordingLogger implements Logger {
  readonly errors: string[] = [];

  error(message: string): void {
    this.errors.push(message);
  }
  enabled(): boolean {
    return false;
  }
  info(): void {}
  warn(): void {}
  setVerbosity(): void {}
  isHealthy(): boolean {
    return true;
  }
}
