/**
 * Query parameters shared by the write verbs: dryRun (rule 9) and fieldValidation (rule 10).
 */
import { badRequest } from '../api/errors.js';
import type { FieldValidation } from '../patch/patch-request.js';

/** `dryRun=All` (or the bare flag) makes a write a dry run; any other value is rejected. */
export function isDryRun(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== 'All' && v !== '') throw badRequest(`dryRun: Unsupported value: "${v}": supported values: "All"`);
  }
  return true;
}

export type { FieldValidation };

export function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw badRequest(`fieldValidation: Unsupported value: "${v}": supported values: "Ignore", "Strict", "Warn"`);
}
