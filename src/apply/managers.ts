/**
 * metadata.managedFields as a table of managers: each entry's identity (manager, operation,
 * subresource, and for updaters the API version they wrote with) and the fields it owns. Encoding
 * sorts entries as upstream does (appliers first, then by time, manager, version, subresource).
 */
import { compareCodeUnits } from '../util/compare.js';
import { FieldSet } from './field-set.js';

/** The operations upstream knows; an entry read from a client keeps whatever it says (see decodeManagers). */
export type Operation = 'Apply' | 'Update';

export interface ManagerRecord {
  readonly manager: string;
  readonly operation: Operation | string;
  readonly apiVersion: string;
  readonly subresource: string;
  /** RFC 3339 time of the manager's last change; undefined when it never changed the object. */
  readonly time: string | undefined;
  readonly fields: FieldSet;
}

export type Managers = Map<string, ManagerRecord>;

/**
 * The identity of a manager's entry. An applier is the same manager whatever version it applies
 * with; an updater writing with another version gets another entry.
 */
export function identityOf(manager: string, operation: Operation | string, apiVersion: string, subresource: string): string {
  return JSON.stringify([manager, operation, operation === 'Apply' ? '' : apiVersion, subresource]);
}

export function identityOfRecord(r: ManagerRecord): string {
  return identityOf(r.manager, r.operation, r.apiVersion, r.subresource);
}

function stringAt(entry: Record<string, unknown>, name: string): string {
  const v = entry[name];
  return typeof v === 'string' ? v : '';
}

/**
 * Reads metadata.managedFields. Throws an Error saying what is wrong with the first entry that
 * cannot be read (not an object, no or another fieldsType, fieldsV1 that is not a field set).
 * A later entry with the identity of an earlier one replaces it.
 */
export function decodeManagers(entries: unknown): Managers {
  const managers: Managers = new Map();
  if (entries === undefined || entries === null) return managers;
  if (!Array.isArray(entries)) throw new Error('managedFields is not a list');
  entries.forEach((entry, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error(`managed fields entry ${i} is not an object`);
    const e = entry as Record<string, unknown>;
    const fieldsType = stringAt(e, 'fieldsType');
    if (fieldsType === '') throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType ${JSON.stringify(fieldsType)} in managed fields entry ${i}`);
    // Kept as sent: an operation other than Apply or Update is refused by the metadata validation (422).
    const operation = stringAt(e, 'operation');
    const record: ManagerRecord = {
      manager: stringAt(e, 'manager'),
      operation,
      apiVersion: stringAt(e, 'apiVersion'),
      subresource: stringAt(e, 'subresource'),
      time: typeof e['time'] === 'string' ? e['time'] : undefined,
      fields: e['fieldsV1'] === undefined || e['fieldsV1'] === null ? new FieldSet() : FieldSet.fromFieldsV1(e['fieldsV1']),
    };
    managers.set(identityOfRecord(record), record);
  });
  return managers;
}

function seconds(time: string | undefined): number {
  const ms = time === undefined ? NaN : Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** The managedFields list of `managers`, in upstream's order; undefined when there are none. */
export function encodeManagers(managers: Managers): Array<Record<string, unknown>> | undefined {
  if (managers.size === 0) return undefined;
  const records = [...managers.values()].sort(
    (p, q) =>
      compareCodeUnits(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      compareCodeUnits(p.manager, q.manager) ||
      compareCodeUnits(p.apiVersion, q.apiVersion) ||
      compareCodeUnits(p.subresource, q.subresource),
  );
  return records.map((r) => managedFieldsEntry(r.manager, r.operation, r.apiVersion, r.time, r.fields.toFieldsV1(), r.subresource));
}

/** One managedFields entry, in ManagedFieldsEntry's field order; empty strings are omitted as upstream omits them. */
export function managedFieldsEntry(
  manager: string,
  operation: Operation | string,
  apiVersion: string,
  time: string | undefined,
  fieldsV1: Record<string, unknown>,
  subresource: string,
): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  if (manager !== '') entry['manager'] = manager;
  entry['operation'] = operation;
  if (apiVersion !== '') entry['apiVersion'] = apiVersion;
  if (time !== undefined) entry['time'] = time;
  entry['fieldsType'] = 'FieldsV1';
  entry['fieldsV1'] = fieldsV1;
  if (subresource !== '') entry['subresource'] = subresource;
  return entry;
}

/** Upstream keeps at most this many updaters' entries; older ones are merged into one per version. */
export const MAX_UPDATE_MANAGERS = 10;
const ANCIENT_CHANGES = 'ancient-changes';

/**
 * Merges the oldest updaters' entries into an `ancient-changes` entry per API version until at
 * most MAX_UPDATE_MANAGERS updaters are left.
 */
export function capUpdaters(managers: Managers): void {
  const updaters = [...managers.entries()].filter(([, r]) => r.operation === 'Update');
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  updaters.sort(([ia, a], [ib, b]) => seconds(a.time) - seconds(b.time) || compareCodeUnits(ia, ib));
  const firstOfVersion = new Map<string, string>();
  let count = updaters.length;
  for (const [identity, record] of updaters) {
    if (count <= MAX_UPDATE_MANAGERS) break;
    const first = firstOfVersion.get(record.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(record.apiVersion, identity);
      continue;
    }
    const bucketId = identityOf(ANCIENT_CHANGES, 'Update', record.apiVersion, '');
    let bucket = managers.get(bucketId);
    if (!bucket) {
      const firstRecord = managers.get(first)!;
      managers.delete(first);
      bucket = { ...firstRecord, manager: ANCIENT_CHANGES, subresource: '' };
    }
    managers.delete(identity);
    managers.set(bucketId, { ...bucket, fields: record.fields.union(bucket.fields), time: record.time });
    count--;
  }
}
