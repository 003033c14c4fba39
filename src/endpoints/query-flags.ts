/**
 * Query parameters shared by the write verbs: dryRun (rule 9), fieldValidation (rule 10), and the
 * fieldManager and force of server-side apply.
 */
import { invalid, type FieldError } from '../api/errors.js';
import { isGoPrintable } from '../serialization/go-format.js';
import { queryOptionalBool } from '../serialization/go-query-values.js';
import { fieldForbidden, fieldNotSupported, fieldRequired } from '../validation/field-errors.js';
import { FIELD_MANAGER_MAX_LENGTH, validateFieldManager } from '../validation/managed-fields.js';
import type { FieldValidation } from '../patch/patch-request.js';

/** The options object upstream decodes a write's query into, named in its 422s. */
export type WriteOptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

/** The options kind of a write verb (a POST to a subresource is a create). */
export function writeOptionsKind(verb: string): WriteOptionsKind {
  if (verb === 'update') return 'UpdateOptions';
  if (verb === 'patch') return 'PatchOptions';
  if (verb === 'delete' || verb === 'deletecollection') return 'DeleteOptions';
  return 'CreateOptions';
}

/**
 * `dryRun=All` makes a write a dry run. Any other value, an empty one included, is refused as
 * upstream's ValidateDryRun refuses it: 422, naming the options and the values as a Go slice.
 */
export function isDryRun(query: URLSearchParams, kind: WriteOptionsKind): boolean {
  const values = query.getAll('dryRun');
  checkDryRun(values, kind);
  return values.length > 0;
}

/** Throws upstream's 422 unless every value is "All" (a dry run's values, from the query or a body). */
export function checkDryRun(values: readonly string[], kind: WriteOptionsKind): void {
  if (values.every((v) => v === 'All')) return;
  throw invalid(kind, 'meta.k8s.io', '', [fieldNotSupported('dryRun', values, ['All'])]);
}

export type { FieldValidation };

/** The fieldValidation level; Warn when absent or empty; anything else is upstream's 422. */
export function fieldValidationOf(query: URLSearchParams, kind: WriteOptionsKind): FieldValidation {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw invalid(kind, 'meta.k8s.io', '', [fieldNotSupported('fieldValidation', v, ['', 'Ignore', 'Strict', 'Warn'])]);
}

/**
 * The field manager a write is recorded under: the fieldManager parameter, else the User-Agent up
 * to its first "/" (printable characters only, at most 128 bytes), as upstream names managers of
 * clients that do not say. An apply must name one. Throws upstream's 422 for a bad name.
 */
export function fieldManagerOf(query: URLSearchParams, userAgent: string | undefined, kind: WriteOptionsKind, isApply = false): string {
  const given = query.get('fieldManager') ?? '';
  const errors: FieldError[] = [];
  if (isApply && given === '') errors.push(fieldRequired('fieldManager', 'is required for apply patch'));
  errors.push(...validateFieldManager(given, 'fieldManager'));
  if (errors.length > 0) throw invalid(kind, 'meta.k8s.io', '', errors);
  return given !== '' ? given : managerFromUserAgent(userAgent ?? '');
}

/** The last User-Agent seen and the manager it names: clients send the same one again and again. */
let lastUserAgent = '';
let lastManager = '';

function managerFromUserAgent(userAgent: string): string {
  if (userAgent === lastUserAgent) return lastManager;
  const manager = managerNamedBy(userAgent);
  lastUserAgent = userAgent;
  lastManager = manager;
  return manager;
}

function managerNamedBy(userAgent: string): string {
  const slash = userAgent.indexOf('/');
  let out = '';
  let bytes = 0;
  for (const ch of slash >= 0 ? userAgent.slice(0, slash) : userAgent) {
    if (!isGoPrintable(ch.codePointAt(0)!)) continue;
    const size = Buffer.byteLength(ch);
    if (bytes + size > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += size;
  }
  return out;
}

/**
 * `force` of a PATCH: only an apply may set it (upstream's 422 otherwise); true unless "0" or
 * "false", as upstream converts the query.
 */
export function forceOf(query: URLSearchParams, isApply: boolean): boolean {
  const force = queryOptionalBool(query, 'force');
  if (force === undefined) return false;
  if (!isApply) throw invalid('PatchOptions', 'meta.k8s.io', '', [fieldForbidden('force', 'may not be specified for non-apply patch')]);
  return force;
}
