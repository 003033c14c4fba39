/**
 * From the audit flags to what the handler chain audits with: the policy, and the sinks of the log
 * and the webhook, each in its mode (blocking, blocking-strict, batch) and truncating when asked.
 * Upstream's order of wrapping: the truncation outside the batching, the batching outside the
 * backend.
 */
import type { AuditBatchOptions, AuditOptions, AuditTruncateOptions } from '../cli/audit-options.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
import type { Logger } from '../server/logger.js';
import { BufferedSink } from './buffered-sink.js';
import { blockingSink } from './blocking-sink.js';
import { LogEventWriter, type AuditLogFormat, type EventWriter, type TextOutput } from './event-writer.js';
import { loadAuditPolicy, type AuditPolicy } from './policy.js';
import { AuditPolicyEvaluator } from './policy-evaluator.js';
import { RotatingFile } from './rotating-file.js';
import { unionSink, type AuditSink } from './sink.js';
import { truncatingSink } from './truncating-sink.js';
import { WebhookWriter } from './webhook-writer.js';

/** What the server audits with: the compiled policy, and where events go. */
export interface Auditing {
  readonly policy: AuditPolicyEvaluator;
  readonly sink: AuditSink;
}

/**
 * Undefined when nothing is to be audited: neither log nor webhook, or no policy (upstream records
 * nothing without one). Throws, with upstream's words, when the policy cannot be loaded, the log
 * not opened or the webhook's kubeconfig not read.
 */
export function buildAuditing(options: AuditOptions, logger: Logger): Auditing | undefined {
  const { log, webhook } = options;
  const backends = [log.path !== undefined ? 'log' : undefined, webhook.configFile !== undefined ? 'webhook' : undefined].filter((b) => b !== undefined);
  if (backends.length === 0) return undefined;
  if (options.policyFile === undefined) {
    for (const backend of backends) logger.info(`No audit policy file provided, no events will be recorded for ${backend} backend`, 2);
    return undefined;
  }
  let policy: AuditPolicy;
  try {
    policy = loadAuditPolicy(options.policyFile);
  } catch (err) {
    throw new Error(`loading audit policy file: ${(err as Error).message}`);
  }
  const sinks: AuditSink[] = [];
  if (webhook.configFile !== undefined) {
    let writer: WebhookWriter;
    try {
      writer = new WebhookWriter({ connection: loadKubeconfig(webhook.configFile), apiVersion: webhook.version, initialBackoffMs: webhook.initialBackoffMs });
    } catch (err) {
      throw new Error(`initializing audit webhook: ${(err as Error).message}`);
    }
    sinks.push(backendSink(writer, webhook.batch, webhook.truncate, webhook.version, logger));
  }
  if (log.path !== undefined) {
    const output: TextOutput =
      log.path === '-'
        ? { write: (text) => void process.stdout.write(text), close: () => undefined }
        : new RotatingFile(log.path, { maxSizeMegabytes: log.maxSizeMegabytes, maxBackups: log.maxBackups, maxAgeDays: log.maxAgeDays, compress: log.compress });
    const writer = new LogEventWriter(output, log.format as AuditLogFormat, log.version);
    sinks.unshift(backendSink(writer, log.batch, log.truncate, log.version, logger));
  }
  return { policy: new AuditPolicyEvaluator(policy), sink: unionSink(sinks) };
}

function backendSink(writer: EventWriter, batch: AuditBatchOptions, truncate: AuditTruncateOptions, version: string, logger: Logger): AuditSink {
  let sink: AuditSink = batch.mode === 'batch' ? new BufferedSink(writer, batch, logger) : blockingSink(writer, batch.mode === 'blocking-strict', logger);
  if (truncate.enabled) sink = truncatingSink(sink, truncate, version, logger);
  return sink;
}
