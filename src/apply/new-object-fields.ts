/**
 * The FieldsV1 a create records for its manager, built in one walk over the new object. It is what
 * the general path (compare with nothing, then encode the set) gives, without building a set: a
 * create is the commonest write, and the set's bookkeeping cost more than the rest of recording.
 * Every non-empty map and list is added, so each is a member (`".": {}`) as well as a parent; leaves,
 * empty maps and empty lists are members alone.
 */
import { sortCodeUnits } from '../util/compare.js';
import type { FieldTypes, FieldType, Shape } from './field-types.js';
import { compareElements } from './path-element.js';
import { indexItems } from './typed-walks.js';
import { SERVER_SET_METADATA, UNOWNED_TOP_FIELDS } from './unowned-fields.js';

type Fields = Record<string, unknown>;

const UNOWNED_TOP = new Set(UNOWNED_TOP_FIELDS);
const UNOWNED_TOP_AND_STATUS = new Set([...UNOWNED_TOP_FIELDS, 'status']);
const SERVER_METADATA = new Set(SERVER_SET_METADATA);

/**
 * The fields a new `object` sets, as FieldsV1, without those nobody owns (apiVersion, kind, the
 * server's metadata, and `status` when `resetStatus`). Undefined when nothing is left.
 */
export function newObjectFields(types: FieldTypes, root: FieldType, object: Record<string, unknown>, resetStatus: boolean): Fields | undefined {
  const fields: Fields = {};
  return addChildren(types, types.shapeOf(root, object), object, fields, resetStatus ? UNOWNED_TOP_AND_STATUS : UNOWNED_TOP, true) > 0 ? fields : undefined;
}

/**
 * Adds to `out` the FieldsV1 nodes of the members of `value`, whose shape is `shape` (`skip` left
 * out; `atRoot`: metadata is not a member itself and holds no server-set fields). Returns how many
 * it added.
 */
function addChildren(types: FieldTypes, shape: Shape, value: unknown, out: Fields, skip: ReadonlySet<string> | undefined, atRoot: boolean): number {
  let added = 0;
  if (shape.kind === 'map') {
    const map = value as Record<string, unknown>;
    const names = sortCodeUnits(Object.keys(map));
    for (const name of names) {
      const v = map[name];
      if (v === undefined || skip?.has(name)) continue;
      const memberType = shape.member(name).type;
      if (atRoot && name === 'metadata') {
        const meta: Fields = {};
        if (addChildren(types, types.shapeOf(memberType, v), v, meta, SERVER_METADATA, false) > 0) {
          out['f:metadata'] = meta;
          added++;
        }
        continue;
      }
      out[`f:${name}`] = nodeOf(types, memberType, v);
      added++;
    }
  } else if (shape.kind === 'list') {
    const items = [...indexItems(shape, value as unknown[]).values()];
    items.sort((a, b) => compareElements(a.element, b.element));
    for (const { element, item } of items) out[element.key] = nodeOf(types, shape.item, item);
    added = items.length;
  }
  return added;
}

/** The FieldsV1 node of a value that was added: `{}` for a leaf or an empty container, else a member with its children. */
function nodeOf(types: FieldTypes, type: FieldType, value: unknown): Fields {
  const shape = types.shapeOf(type, value);
  if (shape.kind === 'leaf') return {};
  const node: Fields = { '.': {} };
  return addChildren(types, shape, value, node, undefined, false) > 0 ? node : {};
}
