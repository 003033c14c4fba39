/**
 * The first step of upstream's decoders of configuration files (audit policy, ABAC policy,
 * admission configuration): reading apiVersion and kind from the decoded JSON or YAML document
 * into Go's anonymous TypeMeta struct, and failing in the words of that step.
 */
import { cannotUnmarshal, cannotUnmarshalField } from './go-json-errors.js';

/** The type upstream reads apiVersion and kind into, as Go prints it in its errors. */
const GO_TYPE_META = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * The document's apiVersion and kind ("" when absent or null; a null document has neither).
 * Throws an Error `couldn't get version/kind; json parse error: json: cannot unmarshal ...` for a
 * document that is not an object, or for the first of the two fields (in document order) that is
 * not a string.
 */
export function readTypeMeta(doc: unknown): { apiVersion: string; kind: string } {
  if (doc === null || doc === undefined) return { apiVersion: '', kind: '' };
  if (typeof doc !== 'object' || Array.isArray(doc)) throw typeMetaError(cannotUnmarshal(doc, GO_TYPE_META));
  const fields = doc as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if ((key === 'apiVersion' || key === 'kind') && value !== null && typeof value !== 'string') throw typeMetaError(cannotUnmarshalField(value, '', key, 'string'));
  }
  return { apiVersion: (fields['apiVersion'] as string | null | undefined) ?? '', kind: (fields['kind'] as string | null | undefined) ?? '' };
}

function typeMetaError(why: string): Error {
  return new Error(`couldn't get version/kind; json parse error: ${why}`);
}
