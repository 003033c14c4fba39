/**
 * --audit-log-truncate-enabled: an event whose JSON is larger than `maxEventSize` bytes loses its
 * request and response objects (and says so in an annotation); if it is still too large, it is
 * dropped and reported. As upstream's truncate backend. (Splitting batches by
 * --audit-log-truncate-max-batch-size matters only to a sink that sends batches as one document;
 * the log writes events one per line.)
 */
import type { Logger } from '../server/logger.js';
import { eventJson, type AuditEvent } from './event.js';
import { reportLostEvents, type AuditSink } from './sink.js';

export interface TruncateConfig {
  readonly maxEventSize: number;
  readonly maxBatchSize: number;
}

export function truncatingSink(
  delegate: AuditSink,
  config: TruncateConfig,
  /** The written events' version (audit.k8s.io/v1 or audit.cluster.io/v1): their size, and the annotation's group. */
  apiVersion: string,
  logger: Logger,
): AuditSink {
  const annotation = `${apiVersion.split('/')[0]}/truncated`;
  const sizeOf = (event: AuditEvent): number => Buffer.byteLength(eventJson(event, apiVersion)) + 1;
  return {
    processEvent(event: AuditEvent): boolean | Promise<boolean> {
      if (sizeOf(event) <= config.maxEventSize) return delegate.processEvent(event);
      // Below Request level there are no objects to drop.
      let truncated = event;
      if (event.level === 'Request' || event.level === 'RequestResponse') {
        const { requestObject: _request, responseObject: _response, ...rest } = event;
        truncated = { ...rest, annotations: { ...event.annotations, [annotation]: 'true' } };
        if (sizeOf(truncated) <= config.maxEventSize) return delegate.processEvent(truncated);
      }
      reportLostEvents(logger, 'truncate', new Error('event is too large even after truncating'), [truncated]);
      return true;
    },
    close: () => delegate.close(),
  };
}
