/**
 * Upstream's short human-readable durations ("5s", "3m20s", "12m", "3h5m", "2d", "3y45d"), which
 * AGE and other time columns show. The precision shrinks as the duration grows; the thresholds
 * follow k8s.io/apimachinery/pkg/util/duration HumanDuration.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** `${whole}${unit}` plus `${rest}${restUnit}` unless the rest is zero. */
function pair(whole: number, unit: string, rest: number, restUnit: string): string {
  return rest === 0 ? `${whole}${unit}` : `${whole}${unit}${rest}${restUnit}`;
}

/**
 * Formats a duration given in milliseconds. Slightly negative durations (clock skew up to a
 * second) read as "0s"; more negative ones as "<invalid>".
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 10) return pair(minutes, 'm', seconds % 60, 's');
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(ms / HOUR);
  if (hours < 8) return pair(hours, 'h', minutes % 60, 'm');
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return pair(days, 'd', hours % 24, 'h');
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) return pair(years, 'y', days % 365, 'd');
  return `${years}y`;
}

/** Milliseconds since the epoch of an RFC 3339 timestamp, or undefined when absent or unparsable. */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Time elapsed since `timestamp` as upstream prints it; "<unknown>" when the timestamp is missing. */
export function since(timestamp: unknown, now: number): string {
  const at = parseTimestamp(timestamp);
  return at === undefined ? '<unknown>' : humanDuration(now - at);
}
