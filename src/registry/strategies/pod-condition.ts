/**
 * Setting one condition of a pod's status as upstream's UpdatePodCondition does (the scheduler's
 * binding and the eviction both use it): the condition is replaced whole, and its transition time
 * is now unless it already had this status.
 */
import { recordsAt, type JsonRecord } from './json-access.js';

export interface PodConditionChange {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
}

/** Sets `change` in `status.conditions` (mutated), stamping `now` (an RFC 3339 time) as above. */
export function setPodCondition(status: JsonRecord, change: PodConditionChange, now: string): void {
  const conditions = recordsAt(status, 'conditions');
  const index = conditions.findIndex((c) => c['type'] === change.type);
  const old = index >= 0 ? conditions[index] : undefined;
  const since = old?.['status'] === change.status && typeof old['lastTransitionTime'] === 'string' ? old['lastTransitionTime'] : now;
  const condition: JsonRecord = { type: change.type, status: change.status, lastProbeTime: null, lastTransitionTime: since };
  if (change.reason !== undefined) condition['reason'] = change.reason;
  if (change.message !== undefined) condition['message'] = change.message;
  if (old) conditions[index] = condition;
  else conditions.push(condition);
  status['conditions'] = conditions;
}
