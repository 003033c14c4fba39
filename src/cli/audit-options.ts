/**
 * The audit flags (--audit-policy-file, --audit-log-*, --audit-webhook-*): their options,
 * defaults, reading and checks, as upstream's AuditOptions. The log is on when --audit-log-path is
 * set, the webhook when --audit-webhook-config-file is; either records events only when a policy
 * file is given too (upstream records nothing without a policy).
 */
import type { BatchConfig } from '../audit/buffered-sink.js';
import { AUDIT_LOG_FORMATS } from '../audit/event-writer.js';
import { formatDuration } from '../server/duration.js';
import type { FlagValues } from './flag-values.js';
import type { FlagSpec } from './parse-flags.js';

export interface AuditBatchOptions extends BatchConfig {
  /** batch, blocking or blocking-strict; the rest is used in batch mode only. */
  readonly mode: string;
}

export interface AuditTruncateOptions {
  readonly enabled: boolean;
  readonly maxBatchSize: number;
  readonly maxEventSize: number;
}

export interface AuditLogOptions {
  /** --audit-log-path; "-" is standard output; unset: no log. */
  readonly path?: string;
  readonly maxAgeDays: number;
  readonly maxBackups: number;
  readonly maxSizeMegabytes: number;
  readonly compress: boolean;
  /** json or legacy. */
  readonly format: string;
  /** --audit-log-version: the events' apiVersion. */
  readonly version: string;
  readonly batch: AuditBatchOptions;
  readonly truncate: AuditTruncateOptions;
}

export interface AuditWebhookOptions {
  /** --audit-webhook-config-file: a kubeconfig naming the server; unset: no webhook. */
  readonly configFile?: string;
  readonly initialBackoffMs: number;
  /** --audit-webhook-version: the apiVersion of the EventLists sent. */
  readonly version: string;
  readonly batch: AuditBatchOptions;
  readonly truncate: AuditTruncateOptions;
}

export interface AuditOptions {
  readonly policyFile?: string;
  readonly log: AuditLogOptions;
  readonly webhook: AuditWebhookOptions;
}

/** The spec's spelling of the events' group; upstream's, audit.k8s.io/v1, is accepted as well. */
export const DEFAULT_AUDIT_VERSION = 'audit.cluster.io/v1';
export const AUDIT_VERSIONS: readonly string[] = ['audit.cluster.io/v1', 'audit.k8s.io/v1'];
export const AUDIT_MODES: readonly string[] = ['batch', 'blocking', 'blocking-strict'];

export function defaultAuditOptions(): AuditOptions {
  return {
    log: {
      maxAgeDays: 0,
      maxBackups: 0,
      maxSizeMegabytes: 0,
      compress: false,
      format: 'json',
      version: DEFAULT_AUDIT_VERSION,
      // Batching is of no use to a file: one event per batch, written as it comes, as upstream.
      batch: { mode: 'blocking', bufferSize: 10_000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQps: 0, throttleBurst: 0 },
      truncate: { enabled: false, maxBatchSize: 10 * 1024 * 1024, maxEventSize: 100 * 1024 },
    },
    webhook: {
      initialBackoffMs: 10_000,
      version: DEFAULT_AUDIT_VERSION,
      batch: { mode: 'batch', bufferSize: 10_000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQps: 10, throttleBurst: 15 },
      truncate: { enabled: false, maxBatchSize: 10 * 1024 * 1024, maxEventSize: 100 * 1024 },
    },
  };
}

const D = defaultAuditOptions().log;
const W = defaultAuditOptions().webhook;

/** The batch and truncate flags of one backend (`log` or `webhook`), as upstream names them. */
function backendFlags(plugin: 'log' | 'webhook', d: { readonly batch: AuditBatchOptions; readonly truncate: AuditTruncateOptions }): FlagSpec[] {
  const p = `audit-${plugin}`;
  return [
    { name: `${p}-mode`, value: 'mode', description: 'blocking (send each event before the request goes on), blocking-strict (and fail the request when it cannot be sent) or batch (buffer and send later)', defaultText: d.batch.mode },
    { name: `${p}-batch-buffer-size`, value: 'n', description: 'events buffered in batch mode before new ones are dropped', defaultText: String(d.batch.bufferSize) },
    { name: `${p}-batch-max-size`, value: 'n', description: 'events per batch in batch mode', defaultText: String(d.batch.maxBatchSize) },
    { name: `${p}-batch-max-wait`, value: 'duration', description: 'longest an event waits for its batch to fill in batch mode', defaultText: formatDuration(d.batch.maxBatchWaitMs) },
    { name: `${p}-batch-throttle-enable`, description: 'limit the batches sent per second in batch mode', defaultText: String(d.batch.throttleEnable) },
    { name: `${p}-batch-throttle-qps`, value: 'rate', description: 'batches per second, on average, with the throttle on', defaultText: String(d.batch.throttleQps) },
    { name: `${p}-batch-throttle-burst`, value: 'n', description: 'batches sent at once after a quiet spell, with the throttle on', defaultText: String(d.batch.throttleBurst) },
    { name: `${p}-truncate-enabled`, description: `drop the request and response objects of events larger than --${p}-truncate-max-event-size (and the event if still too large)`, defaultText: 'false' },
    { name: `${p}-truncate-max-batch-size`, value: 'bytes', description: 'largest batch handed on', defaultText: String(d.truncate.maxBatchSize) },
    { name: `${p}-truncate-max-event-size`, value: 'bytes', description: 'largest event handed on whole', defaultText: String(d.truncate.maxEventSize) },
  ];
}

export const AUDIT_FLAGS: readonly FlagSpec[] = [
  { name: 'audit-policy-file', value: 'file', description: 'audit policy (audit.k8s.io/v1 or audit.cluster.io/v1 Policy, YAML or JSON); without it nothing is audited' },
  { name: 'audit-log-path', value: 'file', description: 'write audit events to this file (- for standard output)' },
  { name: 'audit-log-format', value: 'format', description: 'json (one event per line) or legacy (one line of text per event)', defaultText: D.format },
  { name: 'audit-log-version', value: 'group/version', description: 'apiVersion of the written events: audit.cluster.io/v1 or audit.k8s.io/v1', defaultText: D.version },
  { name: 'audit-log-maxage', value: 'days', description: 'days to keep rotated audit log files (by the time in their name); 0: no limit', defaultText: '0' },
  { name: 'audit-log-maxbackup', value: 'n', description: 'rotated audit log files to keep; 0: no limit', defaultText: '0' },
  { name: 'audit-log-maxsize', value: 'megabytes', description: 'size at which the audit log is rotated', defaultText: '0' },
  { name: 'audit-log-compress', description: 'gzip rotated audit log files', defaultText: 'false' },
  ...backendFlags('log', D),
  { name: 'audit-webhook-config-file', value: 'file', description: 'kubeconfig of a server to which audit events are sent, in EventLists' },
  { name: 'audit-webhook-initial-backoff', alias: 'audit-webhook-batch-initial-backoff', value: 'duration', description: 'wait before the first retry of a failed send', defaultText: formatDuration(W.initialBackoffMs) },
  { name: 'audit-webhook-version', value: 'group/version', description: 'apiVersion of the sent EventLists: audit.cluster.io/v1 or audit.k8s.io/v1', defaultText: W.version },
  ...backendFlags('webhook', W),
];

export function auditOptionsFrom(flags: FlagValues): AuditOptions {
  const policyFile = flags.string('audit-policy-file') || undefined;
  const path = flags.string('audit-log-path') || undefined;
  const configFile = flags.string('audit-webhook-config-file') || undefined;
  return {
    ...(policyFile ? { policyFile } : {}),
    log: {
      ...(path ? { path } : {}),
      maxAgeDays: flags.int('audit-log-maxage') ?? D.maxAgeDays,
      maxBackups: flags.int('audit-log-maxbackup') ?? D.maxBackups,
      maxSizeMegabytes: flags.int('audit-log-maxsize') ?? D.maxSizeMegabytes,
      compress: flags.bool('audit-log-compress') ?? D.compress,
      format: flags.string('audit-log-format') ?? D.format,
      version: flags.string('audit-log-version') ?? D.version,
      batch: batchOptionsFrom(flags, 'log', D.batch),
      truncate: truncateOptionsFrom(flags, 'log', D.truncate),
    },
    webhook: {
      ...(configFile ? { configFile } : {}),
      initialBackoffMs: flags.duration('audit-webhook-initial-backoff') ?? W.initialBackoffMs,
      version: flags.string('audit-webhook-version') ?? W.version,
      batch: batchOptionsFrom(flags, 'webhook', W.batch),
      truncate: truncateOptionsFrom(flags, 'webhook', W.truncate),
    },
  };
}

function batchOptionsFrom(flags: FlagValues, plugin: string, d: AuditBatchOptions): AuditBatchOptions {
  const p = `audit-${plugin}`;
  return {
    mode: flags.string(`${p}-mode`) ?? d.mode,
    bufferSize: flags.int(`${p}-batch-buffer-size`) ?? d.bufferSize,
    maxBatchSize: flags.int(`${p}-batch-max-size`) ?? d.maxBatchSize,
    maxBatchWaitMs: flags.duration(`${p}-batch-max-wait`) ?? d.maxBatchWaitMs,
    throttleEnable: flags.bool(`${p}-batch-throttle-enable`) ?? d.throttleEnable,
    throttleQps: flags.float64(`${p}-batch-throttle-qps`) ?? d.throttleQps,
    throttleBurst: flags.int(`${p}-batch-throttle-burst`) ?? d.throttleBurst,
  };
}

function truncateOptionsFrom(flags: FlagValues, plugin: string, d: AuditTruncateOptions): AuditTruncateOptions {
  const p = `audit-${plugin}`;
  return {
    enabled: flags.bool(`${p}-truncate-enabled`) ?? d.enabled,
    maxBatchSize: flags.goFlagInt64(`${p}-truncate-max-batch-size`) ?? d.maxBatchSize,
    maxEventSize: flags.goFlagInt64(`${p}-truncate-max-event-size`) ?? d.maxEventSize,
  };
}

/** Upstream's checks of the log's and the webhook's options, in its words; none for a backend that is off. */
export function validateAuditOptions(options: AuditOptions): string[] {
  return [...validateLog(options.log), ...validateWebhook(options.webhook)];
}

function validateWebhook(webhook: AuditWebhookOptions): string[] {
  return webhook.configFile === undefined ? [] : backendProblems('webhook', webhook);
}

function validateLog(log: AuditLogOptions): string[] {
  if (log.path === undefined) return [];
  const errors = backendProblems('log', log);
  if (!(AUDIT_LOG_FORMATS as readonly string[]).includes(log.format)) errors.push(`invalid audit log format ${log.format}, allowed formats are "${AUDIT_LOG_FORMATS.join(',')}"`);
  if (log.maxAgeDays < 0) errors.push(`--audit-log-maxage ${log.maxAgeDays} can't be a negative number`);
  if (log.maxBackups < 0) errors.push(`--audit-log-maxbackup ${log.maxBackups} can't be a negative number`);
  if (log.maxSizeMegabytes < 0) errors.push(`--audit-log-maxsize ${log.maxSizeMegabytes} can't be a negative number`);
  return errors;
}

/** What both backends check, in upstream's order: the batching, the truncation, the version. */
function backendProblems(plugin: string, backend: { readonly batch: AuditBatchOptions; readonly truncate: AuditTruncateOptions; readonly version: string }): string[] {
  const problems = [batchProblem(plugin, backend.batch), truncateProblem(plugin, backend.truncate)];
  if (!AUDIT_VERSIONS.includes(backend.version)) problems.push(versionProblem(backend.version));
  return problems.filter((p): p is string => p !== undefined);
}

function batchProblem(plugin: string, batch: AuditBatchOptions): string | undefined {
  if (!AUDIT_MODES.includes(batch.mode)) return `invalid audit ${plugin} mode ${batch.mode}, allowed modes are "${AUDIT_MODES.join(',')}"`;
  if (batch.mode !== 'batch') return undefined;
  if (batch.bufferSize <= 0) return `invalid audit batch ${plugin} buffer size ${batch.bufferSize}, must be a positive number`;
  if (batch.maxBatchSize <= 0) return `invalid audit batch ${plugin} max batch size ${batch.maxBatchSize}, must be a positive number`;
  if (batch.throttleEnable) {
    if (batch.throttleQps <= 0) return `invalid audit batch ${plugin} throttle QPS ${batch.throttleQps}, must be a positive number`;
    if (batch.throttleBurst <= 0) return `invalid audit batch ${plugin} throttle burst ${batch.throttleBurst}, must be a positive number`;
  }
  return undefined;
}

function truncateProblem(plugin: string, truncate: AuditTruncateOptions): string | undefined {
  if (truncate.maxEventSize <= 0) return `invalid audit truncate ${plugin} max event size ${truncate.maxEventSize}, must be a positive number`;
  if (truncate.maxBatchSize < truncate.maxEventSize) {
    return `invalid audit truncate ${plugin} max batch size ${truncate.maxBatchSize}, must be greater than max event size (${truncate.maxEventSize})`;
  }
  return undefined;
}

/** Upstream's words for a version it does not write, with both spellings Capstan writes. */
function versionProblem(version: string): string {
  if (version.split('/').length > 2) return `unexpected GroupVersion string: ${version}`;
  return `invalid group version, allowed versions are [${AUDIT_VERSIONS.map((v) => JSON.stringify(v)).join(' ')}]`;
}
