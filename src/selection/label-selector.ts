/**
 * Label selectors in the query syntax clients send (`?labelSelector=app=web,tier!=db,env in (a,b),!canary`).
 * Parsed once per request into a predicate over a label map.
 */
import { badRequest } from '../api/errors.js';

export type LabelRequirement =
  | { readonly key: string; readonly op: 'in' | 'notin'; readonly values: readonly string[] }
  | { readonly key: string; readonly op: 'exists' | 'doesnotexist' }
  | { readonly key: string; readonly op: 'gt' | 'lt'; readonly value: number };

export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** True when the selector selects everything. */
  readonly empty: boolean;
}

const EVERYTHING: LabelSelector = { requirements: [], matches: () => true, empty: true };

/** A token of the selector grammar. */
type Token = { kind: 'word' | 'op' | 'comma' | 'lparen' | 'rparen' | 'not'; text: string };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === ' ' || c === '\t') { i++; continue; }
    if (c === ',') { tokens.push({ kind: 'comma', text: c }); i++; continue; }
    if (c === '(') { tokens.push({ kind: 'lparen', text: c }); i++; continue; }
    if (c === ')') { tokens.push({ kind: 'rparen', text: c }); i++; continue; }
    const two = input.slice(i, i + 2);
    if (two === '==' || two === '!=') { tokens.push({ kind: 'op', text: two }); i += 2; continue; }
    if (c === '=' || c === '>' || c === '<') { tokens.push({ kind: 'op', text: c }); i++; continue; }
    if (c === '!') { tokens.push({ kind: 'not', text: c }); i++; continue; }
    let j = i;
    while (j < input.length && !' \t,()=!<>'.includes(input[j]!)) j++;
    tokens.push({ kind: 'word', text: input.slice(i, j) });
    i = j;
  }
  return tokens;
}

function invalidSelector(why: string): Error {
  return badRequest(`unable to parse requirement: ${why}`);
}

/**
 * Parses a label selector string. Throws a 400 BadRequest ApiError on a malformed selector.
 * An empty string selects everything.
 */
export function parseLabelSelector(selector: string): LabelSelector {
  if (selector.trim() === '') return EVERYTHING;
  const tokens = tokenize(selector);
  const requirements: LabelRequirement[] = [];
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const next = (): Token | undefined => tokens[pos++];
  const expectWord = (what: string): string => {
    const t = next();
    if (!t || t.kind !== 'word') throw invalidSelector(`found '${t?.text ?? ''}', expected: ${what}`);
    return t.text;
  };
  while (pos < tokens.length) {
    if (peek()?.kind === 'not') {
      next();
      requirements.push({ key: checkKey(expectWord('identifier')), op: 'doesnotexist' });
    } else {
      const key = checkKey(expectWord('identifier'));
      const t = peek();
      if (!t || t.kind === 'comma') {
        requirements.push({ key, op: 'exists' });
      } else if (t.kind === 'op') {
        next();
        const value = peek()?.kind === 'word' ? next()!.text : '';
        checkValue(value);
        if (t.text === '>' || t.text === '<') {
          const n = Number(value);
          if (!Number.isInteger(n)) throw invalidSelector(`for 'Gt', 'Lt' operators, the value must be an integer`);
          requirements.push({ key, op: t.text === '>' ? 'gt' : 'lt', value: n });
        } else {
          requirements.push({ key, op: t.text === '!=' ? 'notin' : 'in', values: [value] });
        }
      } else if (t.kind === 'word' && (t.text === 'in' || t.text === 'notin')) {
        next();
        if (next()?.kind !== 'lparen') throw invalidSelector(`found '${peek()?.text ?? ''}', expected: '('`);
        const values: string[] = [];
        while (peek() && peek()!.kind !== 'rparen') {
          const v = next()!;
          if (v.kind === 'comma') continue;
          if (v.kind !== 'word') throw invalidSelector(`found '${v.text}', expected: ',', ')' or identifier`);
          values.push(checkValue(v.text));
        }
        if (next()?.kind !== 'rparen') throw invalidSelector(`found '', expected: ')'`);
        requirements.push({ key, op: t.text, values });
      } else {
        throw invalidSelector(`found '${t.text}', expected: in, notin, =, ==, !=, gt, lt`);
      }
    }
    const sep = next();
    if (sep && sep.kind !== 'comma') throw invalidSelector(`found '${sep.text}', expected: ',' or 'end of string'`);
  }
  return selectorOf(requirements);
}

const KEY_PATTERN = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE_PATTERN = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key) || key.length > 316) {
    throw invalidSelector(`invalid label key "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  }
  return key;
}

function checkValue(value: string): string {
  if (value.length > 63 || !VALUE_PATTERN.test(value)) {
    throw invalidSelector(`invalid label value: "${value}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  }
  return value;
}

function selectorOf(requirements: LabelRequirement[]): LabelSelector {
  return {
    requirements,
    empty: requirements.length === 0,
    matches(labels) {
      for (const r of requirements) if (!matchesRequirement(r, labels)) return false;
      return true;
    },
  };
}

function matchesRequirement(r: LabelRequirement, labels: Readonly<Record<string, string>> | undefined): boolean {
  const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels![r.key]! : undefined;
  switch (r.op) {
    case 'exists': return has;
    case 'doesnotexist': return !has;
    case 'in': return has && r.values.includes(value!);
    case 'notin': return !has || !r.values.includes(value!);
    case 'gt': return has && Number.isInteger(Number(value)) && Number(value) > r.value;
    case 'lt': return has && Number.isInteger(Number(value)) && Number(value) < r.value;
  }
}

/** The structured form of a label selector (metav1.LabelSelector), e.g. a Deployment's spec.selector. */
export interface StructuredLabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
