/**
 * Query parameters shared by the write verbs: dryRun (rule 9) and fieldValidation (rule 10).
 */
import { invalid } from '../api/errors.js';
import { fieldNotSupported, goStringSlice } from '../validation/field-errors.js';
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
  throw invalid(kind, 'meta.k8s.io', '', [fieldNotSupported('dryRun', goStringSlice(values), ['All'])]);
}

export type { FieldValidation };

/** The fieldValidation level; Warn when absent or empty; anything else is upstream's 422. */
export function fieldValidationOf(query: URLSearchParams, kind: WriteOptionsKind): FieldValidation {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw invalid(kind, 'meta.k8s.io', '', [fieldNotSupported('fieldValidation', v, ['', 'Ignore', 'Strict', 'Warn'])]);
}
