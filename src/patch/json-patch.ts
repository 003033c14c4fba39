/**
 * JSON Patch (RFC 6902) as upstream applies it (evanphx/json-patch v4): add, remove, replace, move,
 * copy, test, with that library's leniencies kept because clients depend on the server's behaviour,
 * not the RFC's: `replace` of a missing object member adds it, `copy` of a missing member copies
 * null, a `test` for null passes when the member is missing, `add` and `remove` at the root fail.
 * Every failure is upstream's 422 with its fixed message; the reason is the error's cause.
 */
import { decodeJsonPatch } from './json-patch-decode.js';
import type { RawOperation } from './json-patch-decode.js';
import { PatchFailure, addMember, getMember, isContainer, locate, removeMember, setMember } from './json-document.js';
import type { Container } from './json-document.js';
import { jsonEqual } from './json-equal.js';
import { patchNotApplicable } from './patch-errors.js';
import type { PatchRequest, PatchResult } from './patch-request.js';

/** Upstream's default limit on bytes added by `copy` operations in one patch (3 MiB). */
export const DEFAULT_MAX_COPY_BYTES = 3 * 1024 * 1024;

interface ApplyState {
  root: Container;
  copiedBytes: number;
  readonly maxCopyBytes: number;
}

function stringMember(op: RawOperation, field: 'op' | 'path' | 'from'): string | undefined {
  const v = op?.[field];
  return typeof v === 'string' ? v : undefined;
}

/** The operation's value; a missing value is null, as the library reads it. */
function valueOf(op: RawOperation): unknown {
  return op?.['value'] ?? null;
}

function required(op: RawOperation, field: 'path' | 'from', kind: string): string {
  const v = stringMember(op, field);
  if (v === undefined) throw new PatchFailure(`${kind} operation failed to decode ${field}`);
  return v;
}

function target(state: ApplyState, path: string, what: string): { container: Container; key: string } {
  const found = locate(state.root, path);
  if (found === undefined) throw new PatchFailure(`${what}: ${JSON.stringify(path)}`);
  return found;
}

function add(state: ApplyState, op: RawOperation): void {
  const path = required(op, 'path', 'add');
  const { container, key } = target(state, path, 'add operation does not apply: doc is missing path');
  addMember(container, key, valueOf(op));
}

function remove(state: ApplyState, op: RawOperation): void {
  const path = required(op, 'path', 'remove');
  const { container, key } = target(state, path, 'remove operation does not apply: doc is missing path');
  removeMember(container, key);
}

function replace(state: ApplyState, op: RawOperation): void {
  const path = required(op, 'path', 'replace');
  const value = valueOf(op);
  if (path === '') {
    if (!isContainer(value)) throw new PatchFailure('replace operation value must be object or array');
    state.root = value;
    return;
  }
  const { container, key } = target(state, path, 'replace operation does not apply: doc is missing path');
  // Only an array index is checked here: a missing object member is simply set.
  getMember(container, key);
  setMember(container, key, value);
}

function move(state: ApplyState, op: RawOperation): void {
  const from = required(op, 'from', 'move');
  const source = target(state, from, 'move operation does not apply: doc is missing from path');
  const value = getMember(source.container, source.key) ?? null;
  removeMember(source.container, source.key);
  const path = required(op, 'path', 'move');
  const { container, key } = target(state, path, 'move operation does not apply: doc is missing destination path');
  addMember(container, key, value);
}

function copy(state: ApplyState, op: RawOperation): void {
  const from = required(op, 'from', 'copy');
  const source = target(state, from, 'copy operation does not apply: doc is missing from path');
  const value = getMember(source.container, source.key) ?? null;
  const path = required(op, 'path', 'copy');
  const { container, key } = target(state, path, 'copy operation does not apply: doc is missing destination path');
  const text = JSON.stringify(value);
  state.copiedBytes += Buffer.byteLength(text);
  if (state.maxCopyBytes > 0 && state.copiedBytes > state.maxCopyBytes) {
    throw new PatchFailure(
      `Unable to complete the copy, the accumulated size increase of copy is ${state.copiedBytes}, exceeding the limit ${state.maxCopyBytes}`,
    );
  }
  addMember(container, key, JSON.parse(text));
}

function test(state: ApplyState, op: RawOperation): void {
  const path = required(op, 'path', 'test');
  const failed = new PatchFailure(`testing value ${path} failed: test failed`);
  const expected = op !== null && Object.hasOwn(op, 'value') ? op['value'] : undefined;
  if (path === '') {
    if (!jsonEqual(state.root, expected)) throw failed;
    return;
  }
  const { container, key } = target(state, path, 'test operation does not apply: is missing path');
  const actual = getMember(container, key) ?? null;
  // A missing member and a null one are the same to the library; only an explicit null matches.
  if (actual === null ? expected !== null : expected === undefined || !jsonEqual(actual, expected)) throw failed;
}

const OPERATIONS: Readonly<Record<string, (state: ApplyState, op: RawOperation) => void>> = { add, remove, replace, move, copy, test };

/**
 * Applies decoded operations to a copy of `doc`, in order, all or nothing. Returns the new
 * document; `doc` is not modified. Throws the 422 ApiError upstream answers with when an operation
 * cannot apply.
 */
export function applyJsonPatchOperations(doc: Readonly<Record<string, unknown>>, operations: readonly RawOperation[], maxCopyBytes = DEFAULT_MAX_COPY_BYTES): unknown {
  const state: ApplyState = { root: structuredClone(doc) as Container, copiedBytes: 0, maxCopyBytes };
  for (const op of operations) {
    const kind = stringMember(op, 'op') ?? 'unknown';
    const apply = Object.hasOwn(OPERATIONS, kind) ? OPERATIONS[kind]! : undefined;
    try {
      if (apply === undefined) throw new PatchFailure(`Unexpected kind: ${kind}`);
      apply(state, op);
    } catch (err) {
      if (err instanceof PatchFailure) throw patchNotApplicable(err.message);
      throw err;
    }
  }
  return state.root;
}

/**
 * The JSON Patch applier: decodes the body (see decodeJsonPatch for its 400s and 413) and applies it
 * to a copy of the current object (422 when it cannot apply).
 */
export function applyJsonPatch(request: PatchRequest): PatchResult {
  const { operations, strictErrors } = decodeJsonPatch(request.body, request.fieldValidation);
  return { value: applyJsonPatchOperations(request.current, operations), strictErrors };
}
