/** A logger for tests that keeps the error and warning lines it is given and drops the rest. */
import type { Logger } from '../src/server/logger.js';

export class RecordingLogger implements Logger {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];

  error(message: string): void {
    this.errors.push(message);
  }
  enabled(): boolean {
    return false;
  }
  info(): void {}
  warn(message: string): void {
    this.warnings.push(message);
  }
  setVerbosity(): void {}
  isHealthy(): boolean {
    return true;
  }
}
