/**
 * Where audit events go (upstream's audit.Backend): the log file, and the batching and truncating
 * layers that wrap it. Events are handed over synchronously, once per stage; the filter changes
 * the same event for the next stage, so a sink that keeps an event for later keeps a copy (its
 * encoding).
 */
import type { Logger } from '../server/logger.js';
import { isPromise } from '../util/promises.js';
import type { AuditEvent } from './event.js';
import { legacyEventLine } from './legacy-format.js';

export interface AuditSink {
  /**
   * Takes one event. False when it could not be stored: only a `blocking-strict` sink says so, and
   * the request then fails at its RequestReceived stage. A promise when the sink must wait for a
   * server (a blocking webhook); the request waits with it.
   */
  processEvent(event: AuditEvent): boolean | Promise<boolean>;
  /** Writes out what is still buffered and releases the sink's files. */
  close(): Promise<void>;
}

/** Several sinks as one (the log and the webhook): each gets every event. */
export function unionSink(sinks: readonly AuditSink[]): AuditSink {
  if (sinks.length === 1) return sinks[0]!;
  return {
    processEvent: (event) => {
      const results = sinks.map((sink) => sink.processEvent(event));
      if (!results.some(isPromise)) return results.every(Boolean);
      return Promise.all(results).then((stored) => stored.every(Boolean));
    },
    close: () => Promise.all(sinks.map((sink) => sink.close())).then(() => undefined),
  };
}

/** Reports events a sink lost, each as its one-line form, as upstream's HandlePluginError does. */
export function reportLostEvents(logger: Logger, plugin: string, err: unknown, events: readonly AuditEvent[]): void {
  const reason = err instanceof Error ? err.message : String(err);
  const lines = events.map((event) => `\n${legacyEventLine(event)}`).join('');
  logger.error(`Error in audit plugin '${plugin}' affecting ${events.length} audit events: ${reason}\nImpacted events:${lines}`);
}
