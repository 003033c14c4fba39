/**
 * The last step of an audit backend: events encoded and written out. The log writes them as lines
 * (json or legacy) to its file; a batch of events goes out in one write, because every system call
 * costs on these machines.
 */
import { eventJson, type AuditEvent } from './event.js';
import { legacyEventLine } from './legacy-format.js';

/** Writes a batch of events, in order, or throws. */
export interface EventWriter {
  /** The plugin's name in error reports ("log", "webhook"). */
  readonly plugin: string;
  /** Done when it returns (the log), or when the promise settles (the webhook, a server away). */
  writeEvents(events: readonly AuditEvent[]): void | Promise<void>;
  close(): Promise<void>;
}

export type AuditLogFormat = 'json' | 'legacy';

export const AUDIT_LOG_FORMATS: readonly AuditLogFormat[] = ['json', 'legacy'];

/** A text destination that takes whole writes (the rotating file, or standard output). */
export interface TextOutput {
  write(text: string): void;
  close(): Promise<void> | void;
}

export class LogEventWriter implements EventWriter {
  readonly plugin = 'log';

  constructor(
    private readonly out: TextOutput,
    private readonly format: AuditLogFormat,
    /** --audit-log-version. */
    private readonly apiVersion: string,
  ) {}

  writeEvents(events: readonly AuditEvent[]): void {
    const line = this.format === 'json' ? (event: AuditEvent) => eventJson(event, this.apiVersion) : legacyEventLine;
    let text = '';
    for (const event of events) text += `${line(event)}\n`;
    this.out.write(text);
  }

  async close(): Promise<void> {
    await this.out.close();
  }
}
