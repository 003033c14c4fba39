/**
 * The `blocking` and `blocking-strict` modes: each event is written before the request goes on.
 * A failed write is reported; under `blocking-strict` it also fails the request (at the
 * RequestReceived stage), under `blocking` the request goes on without its event.
 */
import type { Logger } from '../server/logger.js';
import type { AuditEvent } from './event.js';
import type { EventWriter } from './event-writer.js';
import { reportLostEvents, type AuditSink } from './sink.js';

export function blockingSink(writer: EventWriter, strict: boolean, logger: Logger): AuditSink {
  return {
    processEvent(event: AuditEvent): boolean | Promise<boolean> {
      const failed = (err: unknown): boolean => {
        reportLostEvents(logger, writer.plugin, err, [event]);
        return !strict;
      };
      try {
        const written = writer.writeEvents([event]);
        return written ? written.then(() => true, failed) : true;
      } catch (err) {
        return failed(err);
      }
    },
    close: () => writer.close(),
  };
}
