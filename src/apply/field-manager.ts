/**
 * Field ownership of one resource type (upstream's field manager): every write records in
 * metadata.managedFields which manager set which fields, and server-side apply merges a
 * configuration into the live object, giving up the fields the applier stopped setting and
 * refusing (409) to change fields another manager owns unless forced.
 *
 * Fields no manager owns: apiVersion, kind and the metadata the server sets (name, namespace, uid,
 * resourceVersion, generation, creationTimestamp, managedFields, ...), and the fields the
 * subresource written may not change (status through the main resource, spec through status).
 */
import { ApiError, internalError, type StatusCause } from '../api/errors.js';
import { jsonEqual, type KubeObject } from '../registry/object.js';
import { FieldSet } from './field-set.js';
import type { FieldType, FieldTypes } from './field-types.js';
import { capUpdaters, decodeManagers, encodeManagers, identityOf, managedFieldsEntry, type ManagerRecord, type Managers } from './managers.js';
import { newObjectFields } from './new-object-fields.js';
import { SERVER_SET_METADATA, UNOWNED_TOP_FIELDS } from './unowned-fields.js';
import { compareCodeUnits } from '../util/compare.js';
import { fieldElement, pathString, type FieldPath } from './path-element.js';
import { checkNoDuplicateItems, compare, DuplicateItemError, fieldSetOf, merge, removeFields } from './typed-walks.js';
import { escapeLikeGo } from '../serialization/json-encode.js';
import { sortedJson } from '../serialization/sorted-json.js';
import { declaredKind, goKindString } from '../serialization/object-decode.js';

const field = (...names: string[]): FieldPath => names.map(fieldElement);

/** Paths nobody owns (see unowned-fields.ts). */
const SERVER_FIELDS = FieldSet.of([...UNOWNED_TOP_FIELDS.map((n) => field(n)), field('metadata'), ...SERVER_SET_METADATA.map((n) => field('metadata', n))]);

export interface FieldManagerOptions {
  readonly types: FieldTypes;
  /** The kind's schema definition name (undefined: typed by content). */
  readonly schema: string | undefined;
  /** apiVersion of the kind ("v1", "apps/v1"), recorded in each entry. */
  readonly apiVersion: string;
  /** Whether the kind has a status subresource (then status and spec are owned apart). */
  readonly hasStatus: boolean;
}

/** Who writes: the manager's name and the subresource written ("" for the main resource). */
export interface Writer {
  readonly manager: string;
  readonly subresource: string;
  /** RFC 3339 time of the write. */
  readonly now: string;
}

export class FieldManager {
  readonly #types: FieldTypes;
  readonly #schema: string | undefined;
  readonly #apiVersion: string;
  readonly #hasStatus: boolean;

  constructor(options: FieldManagerOptions) {
    this.#types = options.types;
    this.#schema = options.schema;
    this.#apiVersion = options.apiVersion;
    this.#hasStatus = options.hasStatus;
  }

  /**
   * The kind's type, looked up when a write needs it (FieldTypes keeps each root), not when the
   * manager is made: managers are made with their stores at startup, and the lookup reads the
   * schemas, which a start does not otherwise need before it is ready.
   */
  get #root(): FieldType {
    return this.#types.root(this.#schema);
  }

  /**
   * Records a create (`live` undefined), update or patch in `updated`'s managedFields: the writer
   * owns what it changed, other managers lose it, and fields removed are nobody's. Managed fields
   * the request carries replace the live ones when they can be read (how clients edit them);
   * otherwise the live ones are kept. Never fails: an object whose entries cannot be worked out
   * is written without them, as upstream does.
   */
  trackUpdate(live: KubeObject | undefined, updated: KubeObject, writer: Writer): void {
    try {
      this.#track(live, updated, writer);
    } catch {
      delete (updated.metadata ??= {}).managedFields;
    }
  }

  #track(live: KubeObject | undefined, updated: KubeObject, writer: Writer): void {
    const meta = (updated.metadata ??= {});
    const given = writer.subresource === '' && Array.isArray(meta.managedFields) && meta.managedFields.length > 0;
    if (live === undefined && !given) return this.#trackCreate(updated, writer);
    let managers: Managers | undefined;
    if (given) managers = this.#tryDecode(meta.managedFields);
    managers ??= this.#tryDecode(live?.metadata?.managedFields) ?? new Map();
    delete meta.managedFields;
    const changes = compare(this.#types, this.#root, withoutManagedFields(live), updated);
    const taken = this.#owned(changes.added.union(changes.modified), writer.subresource);
    const removed = changes.removed;
    const self = identityOf(writer.manager, 'Update', this.#apiVersion, writer.subresource);
    for (const [id, record] of managers) {
      if (id === self) continue;
      setFields(managers, id, record, record.fields.difference(taken).difference(removed));
    }
    const previous = managers.get(self);
    const fields = (previous?.fields ?? new FieldSet()).difference(removed).union(taken);
    const time = taken.isEmpty() ? previous?.time : writer.now;
    setFields(managers, self, { manager: writer.manager, operation: 'Update', apiVersion: this.#apiVersion, subresource: writer.subresource, time, fields }, fields);
    capUpdaters(managers);
    setManagedFields(updated, managers);
  }

  /** A create that brings no managedFields: one entry, the creator's, owning all it set. */
  #trackCreate(created: KubeObject, writer: Writer): void {
    const meta = created.metadata!;
    const fieldsV1 = newObjectFields(this.#types, this.#root, created, this.#hasStatus);
    if (fieldsV1) meta.managedFields = [managedFieldsEntry(writer.manager, 'Update', this.#apiVersion, writer.now, fieldsV1, writer.subresource)];
    else if (meta.managedFields !== undefined) delete meta.managedFields;
  }

  /**
   * Server-side apply of `config` to `live` (undefined: the object does not exist yet) by
   * `writer`. Returns the new object with its managedFields. Throws 409 listing the conflicts
   * when the configuration changes fields other managers own and `force` is not set (forced, they
   * lose them), and 500 when the live object's managedFields cannot be read.
   */
  apply(live: KubeObject | undefined, config: KubeObject, writer: Writer, force: boolean): KubeObject {
    let managers: Managers;
    try {
      managers = decodeManagers(live?.metadata?.managedFields);
    } catch (err) {
      throw new ApiError(500, 'InternalError', `failed to decode managed fields: ${(err as Error).message}`);
    }
    try {
      checkNoDuplicateItems(this.#types, this.#root, config);
    } catch (err) {
      if (!(err instanceof DuplicateItemError)) throw err;
      // Upstream refuses such a configuration when it types it, with this 500.
      const meta = config.metadata ?? {};
      const what = `${goKindString(declaredKind(config))} ${String(meta.namespace ?? '')}/${String(meta.name ?? '')}`;
      throw internalError(new Error(`failed to create typed patch object (${what}): ${err.message}`));
    }
    const before = withoutManagedFields(live) ?? {};
    let merged = merge(this.#types, this.#root, before, config) as KubeObject;
    const self = identityOf(writer.manager, 'Apply', this.#apiVersion, writer.subresource);
    const last = managers.get(self);
    const applied = this.#owned(fieldSetOf(this.#types, this.#root, config), writer.subresource);
    const record: ManagerRecord = { manager: writer.manager, operation: 'Apply', apiVersion: this.#apiVersion, subresource: writer.subresource, time: last?.time, fields: applied };
    managers.set(self, record);
    if (last && !last.fields.isEmpty()) {
      let owned = new FieldSet();
      for (const r of managers.values()) owned = owned.union(r.fields);
      const given = last.fields.difference(owned);
      if (!given.isEmpty()) {
        // The merge shares the parts the configuration does not touch with the live object, and
        // those are what removal changes: it works on a copy, so that the comparison below still
        // sees the live object as it was.
        merged = structuredClone(merged);
        removeFields(this.#types, this.#root, merged, given, owned);
      }
    }

    const changes = compare(this.#types, this.#root, before, merged);
    const changed = this.#owned(changes.added.union(changes.modified), writer.subresource);
    const conflicts: Array<{ record: ManagerRecord; path: FieldPath }> = [];
    for (const [id, other] of managers) {
      if (id === self) continue;
      for (const path of other.fields.intersection(changed).paths()) conflicts.push({ record: other, path });
    }
    if (conflicts.length > 0 && !force) {
      // kubectl taking over from its client-side apply may change what that applied, as forced.
      const allowed = writer.manager === 'kubectl' ? this.#setByLastApplied(before) : undefined;
      const refused = allowed ? conflicts.filter((c) => !allowed.has(c.path)) : conflicts;
      if (refused.length > 0) throw conflictError(refused);
    }
    for (const [id, other] of managers) {
      if (id !== self) setFields(managers, id, other, other.fields.difference(changed).difference(changes.removed));
    }
    const objectChanged = !jsonEqual(before, merged);
    setFields(managers, self, objectChanged ? { ...record, time: writer.now } : record, applied);
    capUpdaters(managers);
    const result = objectChanged ? merged : (structuredClone(before) as KubeObject);
    if (writer.manager === 'kubectl') syncLastApplied(result, config);
    setManagedFields(result, managers);
    return result;
  }

  /**
   * The fields client-side apply set, by the object's last-applied annotation, that still hold
   * what it applied; undefined when there is no annotation this type can read.
   */
  #setByLastApplied(live: KubeObject): FieldSet | undefined {
    const text = (live.metadata?.annotations as Record<string, unknown> | undefined)?.[LAST_APPLIED];
    if (typeof text !== 'string' || text === '') return undefined;
    let lastApplied: unknown;
    try {
      lastApplied = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof lastApplied !== 'object' || lastApplied === null || (lastApplied as KubeObject).apiVersion !== this.#apiVersion) return undefined;
    const changed = compare(this.#types, this.#root, lastApplied, live);
    return fieldSetOf(this.#types, this.#root, lastApplied).difference(changed.modified).difference(changed.added).difference(changed.removed);
  }

  /** `set` without the fields nobody owns when writing `subresource`. */
  #owned(set: FieldSet, subresource: string): FieldSet {
    let owned = set.difference(SERVER_FIELDS);
    if (this.#hasStatus) {
      const reset = FieldSet.of([subresource === 'status' ? field('spec') : field('status')]);
      owned = owned.withoutTrees(reset);
    }
    return owned;
  }

  #tryDecode(entries: unknown): Managers | undefined {
    try {
      return decodeManagers(entries);
    } catch {
      return undefined;
    }
  }
}

/** kubectl's client-side apply keeps its last configuration in this annotation. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * After a server-side apply by kubectl, an object that client-side apply also manages gets the new
 * configuration as its last-applied annotation (as upstream keeps them in step), so that a later
 * client-side apply does not undo it. Objects without the annotation are left alone.
 */
function syncLastApplied(object: KubeObject, config: KubeObject): void {
  const annotations = object.metadata?.annotations as Record<string, string> | undefined;
  if (annotations?.[LAST_APPLIED] === undefined) return;
  const applied = structuredClone(config);
  const own = applied.metadata?.annotations as Record<string, string> | undefined;
  if (own) delete own[LAST_APPLIED];
  object.metadata!.annotations = { ...annotations, [LAST_APPLIED]: `${escapeLikeGo(sortedJson(applied))}\n` };
}

function withoutManagedFields(object: KubeObject | undefined): KubeObject | undefined {
  if (!object?.metadata?.managedFields) return object;
  const { managedFields: _dropped, ...metadata } = object.metadata;
  return { ...object, metadata };
}

function setFields(managers: Managers, id: string, record: ManagerRecord, fields: FieldSet): void {
  if (fields.isEmpty()) managers.delete(id);
  else managers.set(id, { ...record, fields });
}

function setManagedFields(object: KubeObject, managers: Managers): void {
  const meta = (object.metadata ??= {});
  const entries = encodeManagers(managers);
  if (entries) meta.managedFields = entries;
  else delete meta.managedFields;
}

/** How a conflict names a manager: `"kubectl"`, with its subresource and, for an updater, version and time. */
function describeManager(r: ManagerRecord): string {
  let name = JSON.stringify(r.manager);
  if (r.subresource !== '') name += ` with subresource ${JSON.stringify(r.subresource)}`;
  if (r.operation === 'Update') name += r.time === undefined ? ` using ${r.apiVersion}` : ` using ${r.apiVersion} at ${r.time}`;
  return name;
}

/** The 409 upstream answers an apply with conflicts, one cause per conflicting field. */
function conflictError(conflicts: ReadonlyArray<{ record: ManagerRecord; path: FieldPath }>): ApiError {
  const sorted = [...conflicts].sort((a, b) => compareCodeUnits(describeManager(a.record), describeManager(b.record)));
  const causes: StatusCause[] = sorted.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describeManager(c.record)}`, field: pathString(c.path) }));
  let message: string;
  if (sorted.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${describeManager(sorted[0]!.record)}: ${pathString(sorted[0]!.path)}`;
  } else {
    const lines: string[] = [];
    let current = '';
    for (const c of sorted) {
      const name = describeManager(c.record);
      if (name !== current) lines.push(`conflicts with ${(current = name)}:`);
      lines.push(`- ${pathString(c.path)}`);
    }
    message = `Apply failed with ${sorted.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiError(409, 'Conflict', message, { causes });
}
