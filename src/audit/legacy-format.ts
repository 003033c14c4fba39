/**
 * The `legacy` audit log format (--audit-log-format=legacy): one line of text per event with a
 * subset of its fields, as upstream writes it. Values are quoted as Go's %q quotes them, so a
 * field cannot break the line.
 */
import { goQuote } from '../serialization/go-format.js';
import type { AuditEvent } from './event.js';

export function legacyEventLine(event: AuditEvent): string {
  const { user } = event;
  const username = user.username ? user.username : '<none>';
  const groups = user.username && user.groups && user.groups.length > 0 ? user.groups.map(goQuote).join(',') : '<none>';
  const namespace = event.objectRef?.namespace ? event.objectRef.namespace : '<none>';
  const response = event.responseStatus ? String(event.responseStatus.code ?? 0) : '<deferred>';
  const ip = event.sourceIPs && event.sourceIPs.length > 0 ? event.sourceIPs[0]! : '<unknown>';
  const as = event.impersonatedUser;
  const asUser = as ? (as.username ?? '') : '<self>';
  const asGroups = as?.groups ? as.groups.map(goQuote).join(',') : '<lookup>';
  return (
    `${rfc3339Nano(event.requestReceivedTimestamp)} AUDIT: id=${goQuote(event.auditID)} stage=${goQuote(event.stage)}` +
    ` ip=${goQuote(ip)} method=${goQuote(event.verb)} user=${goQuote(username)} groups=${goQuote(groups)}` +
    ` as=${goQuote(asUser)} asgroups=${goQuote(asGroups)} user-agent=${goQuote(event.userAgent ?? '')}` +
    ` namespace=${goQuote(namespace)} uri=${goQuote(event.requestURI)} response="${response}"`
  );
}

/** A MicroTime as Go's time.RFC3339Nano prints it: trailing zeros of the fraction dropped. */
function rfc3339Nano(microTime: string): string {
  return microTime.replace(/\.(\d*?)0*Z$/, (_, digits: string) => (digits === '' ? 'Z' : `.${digits}Z`));
}
