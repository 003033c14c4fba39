/**
 * Field selectors (`?fieldSelector=metadata.name=x,status.phase!=Running`). Only the fields a
 * resource type declares are selectable, as upstream: every type supports metadata.name and
 * (namespaced types) metadata.namespace; some add their own (see field-selectable.ts).
 */
import { badRequest } from '../api/errors.js';

export interface FieldRequirement {
  readonly field: string;
  readonly op: '=' | '!=';
  readonly value: string;
}

export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  readonly empty: boolean;
  /** `fields` maps each selectable field to the object's value for it. */
  matches(fields: (field: string) => string | undefined): boolean;
  /** The value a requirement `field=value` pins, if any (lets a list narrow to one name or namespace). */
  exactValue(field: string): string | undefined;
}

const EVERYTHING: FieldSelector = { requirements: [], empty: true, matches: () => true, exactValue: () => undefined };

/** Splits on unescaped separators; upstream allows `\,` `\=` `\\` escapes in values. */
function splitUnescaped(input: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === '\\' && i + 1 < input.length) { current += c + input[i + 1]; i++; continue; }
    if (c === sep) { parts.push(current); current = ''; continue; }
    current += c;
  }
  parts.push(current);
  return parts;
}

function unescape(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/**
 * Parses a field selector and checks each field against `supported` (the type's selectable fields).
 * Throws a 400 BadRequest ApiError for malformed selectors and unsupported fields.
 */
export function parseFieldSelector(selector: string, supported: ReadonlySet<string>): FieldSelector {
  if (selector.trim() === '') return EVERYTHING;
  const requirements: FieldRequirement[] = [];
  for (const term of splitUnescaped(selector, ',')) {
    const match = /^([^=!]*?)(==|!=|=)(.*)$/s.exec(term);
    if (!match) throw badRequest(`invalid selector: '${selector}'; can't understand '${term}'`);
    const field = match[1]!.trim();
    const op = match[2] === '!=' ? '!=' : '=';
    const value = unescape(match[3]!);
    if (!supported.has(field)) throw badRequest(`field label not supported: ${field}`);
    requirements.push({ field, op, value });
  }
  return {
    requirements,
    empty: false,
    matches(fields) {
      for (const r of requirements) {
        const actual = fields(r.field) ?? '';
        if ((actual === r.value) !== (r.op === '=')) return false;
      }
      return true;
    },
    exactValue(field) {
      return requirements.find((r) => r.field === field && r.op === '=')?.value;
    },
  };
}
