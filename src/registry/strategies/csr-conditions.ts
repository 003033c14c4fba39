/**
 * The status.conditions of a CertificateSigningRequest: Approved and Denied are decisions (made
 * through the approval subresource), Failed is the signer's verdict; none of the three, once
 * recorded, may go away. The write paths stamp the conditions' times as upstream's
 * populateConditionTimestamps does.
 */
import { timestamp } from '../object.js';
import { isRecord, recordAt, stringAt, type JsonRecord } from './json-access.js';

export const APPROVED = 'Approved';
export const DENIED = 'Denied';
export const FAILED = 'Failed';

/** The conditions of a CSR (its own array, so changes show in the object); non-objects are skipped. */
export function conditionsOf(csr: JsonRecord): JsonRecord[] {
  const list = recordAt(csr, 'status')?.['conditions'];
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

/** The conditions of `type`, in order. */
export function conditionsOfType(csr: JsonRecord, type: string): JsonRecord[] {
  return conditionsOf(csr).filter((c) => typeOf(c) === type);
}

export function typeOf(condition: JsonRecord): string {
  return stringAt(condition, 'type') ?? '';
}

export function statusOf(condition: JsonRecord): string {
  return stringAt(condition, 'status') ?? '';
}

/**
 * Stamps each of `csr`'s conditions without a lastUpdateTime with `now`, and each without a
 * lastTransitionTime with the one of the stored condition of the same type and status (the
 * condition did not change), else with `now`. Mutates `csr`'s conditions.
 *
 * Example: stored [Approved/True at 10:00]; written [Approved/True, Failed/True] at 10:05 gives
 * Approved: updated 10:05, transition 10:00; Failed: updated and transition 10:05.
 */
export function populateConditionTimestamps(csr: JsonRecord, old: JsonRecord, now: number): void {
  const stamp = timestamp(now);
  const stored = conditionsOf(old);
  for (const condition of conditionsOf(csr)) {
    if (isZeroTime(condition['lastUpdateTime'])) condition['lastUpdateTime'] = stamp;
    if (!isZeroTime(condition['lastTransitionTime'])) continue;
    const same = stored.find((c) => typeOf(c) === typeOf(condition) && statusOf(c) === statusOf(condition) && !isZeroTime(c['lastTransitionTime']));
    condition['lastTransitionTime'] = same ? same['lastTransitionTime'] : stamp;
  }
}

/**
 * A status write may not decide: when it keeps as many conditions of `type` as were stored, they
 * are put back as stored (any change to them is dropped); when it adds or removes some, they are
 * left for validation to refuse. Mutates `csr`'s conditions.
 */
export function preserveConditionInstances(csr: JsonRecord, old: JsonRecord, type: string): void {
  const list = recordAt(csr, 'status')?.['conditions'];
  if (!Array.isArray(list)) return;
  const stored = conditionsOfType(old, type);
  const written = list.flatMap((c: unknown, i) => (isRecord(c) && typeOf(c) === type ? [i] : []));
  if (written.length !== stored.length) return;
  written.forEach((index, i) => (list[index] = structuredClone(stored[i])));
}

/** Whether a time field is unset (Go's zero metav1.Time serializes as null). */
function isZeroTime(value: unknown): boolean {
  return value === undefined || value === null;
}
