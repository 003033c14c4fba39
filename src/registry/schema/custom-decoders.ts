/**
 * The checks that upstream's self-decoding types make on their JSON (resource.Quantity, meta/v1
 * Time and MicroTime, []byte as base64), with upstream's error texts, since clients see them in
 * 400 responses.
 */

const QUANTITY_PATTERN = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const QUANTITY_SUFFIXES = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);

/**
 * Checks a JSON value bound for a resource.Quantity. Upstream strips the quotes of a string and
 * parses the rest, so numbers are accepted and objects, arrays and booleans fail the pattern.
 * @returns upstream's error text, or undefined when the value parses.
 */
export function quantityError(value: unknown): string | undefined {
  if (value === null) return undefined;
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : JSON.stringify(value);
  const match = QUANTITY_PATTERN.exec(text);
  if (!match) return QUANTITY_FORMAT_ERROR;
  const [, numeric = '', suffix = ''] = match;
  if ((numeric.match(/\./g)?.length ?? 0) > 1 || !/[0-9]/.test(numeric)) return 'unable to parse numeric part of quantity';
  if (!QUANTITY_SUFFIXES.has(suffix) && !/^[eE][-+]?[0-9]+$/.test(suffix)) return "unable to parse quantity's suffix";
  return undefined;
}

const RFC3339_LAYOUT = '2006-01-02T15:04:05Z07:00';
const RFC3339_MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';

interface LayoutElement {
  readonly layout: string;
  readonly pattern: RegExp;
}

/** The layout elements in parse order; the fraction element differs between Time and MicroTime. */
function layoutElements(micro: boolean): readonly LayoutElement[] {
  const fraction: LayoutElement = micro
    ? { layout: '.000000', pattern: /^\.[0-9]{6}/ }
    : { layout: '', pattern: /^(\.[0-9]+)?/ };
  return [
    { layout: '2006', pattern: /^[0-9]{4}/ },
    { layout: '-', pattern: /^-/ },
    { layout: '01', pattern: /^[0-9]{2}/ },
    { layout: '-', pattern: /^-/ },
    { layout: '02', pattern: /^[0-9]{2}/ },
    { layout: 'T', pattern: /^T/ },
    { layout: '15', pattern: /^[0-9]{2}/ },
    { layout: ':', pattern: /^:/ },
    { layout: '04', pattern: /^[0-9]{2}/ },
    { layout: ':', pattern: /^:/ },
    { layout: '05', pattern: /^[0-9]{2}/ },
    fraction,
    { layout: 'Z07:00', pattern: /^(Z|[+-][0-9]{2}:[0-9]{2})/ },
  ];
}

const RANGES: readonly (readonly [index: number, name: string, max: number, min: number])[] = [
  [2, 'month', 12, 1], [4, 'day', 31, 1], [6, 'hour', 23, 0], [8, 'minute', 59, 0], [10, 'second', 59, 0],
];

/**
 * Checks a string bound for meta/v1 Time (RFC 3339) or MicroTime (RFC 3339 with microseconds), in
 * the words of Go's time.Parse.
 * @returns the error text, or undefined when the string parses.
 */
export function timeError(text: string, micro: boolean): string | undefined {
  const layout = micro ? RFC3339_MICRO_LAYOUT : RFC3339_LAYOUT;
  const values: string[] = [];
  let rest = text;
  let layoutRest = layout;
  for (const element of layoutElements(micro)) {
    const match = element.pattern.exec(rest);
    if (!match) return `parsing time ${JSON.stringify(text)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(element.layout || layoutRest)}`;
    values.push(match[0]);
    rest = rest.slice(match[0].length);
    layoutRest = layoutRest.slice(element.layout.length);
  }
  if (rest !== '') return `parsing time ${JSON.stringify(text)}: extra text: ${JSON.stringify(rest)}`;
  for (const [index, name, max, min] of RANGES) {
    const n = Number(values[index]);
    if (n < min || n > max) return `parsing time ${JSON.stringify(text)}: ${name} out of range`;
  }
  return undefined;
}

/**
 * Checks a string bound for a []byte field (standard base64 with padding).
 * @returns Go's base64 error text, or undefined when the string decodes.
 */
export function base64Error(text: string): string | undefined {
  const bad = /[^A-Za-z0-9+/=]/.exec(text);
  if (bad) return `illegal base64 data at input byte ${bad.index}`;
  const padding = text.indexOf('=');
  if (padding >= 0 && !/^={1,2}$/.test(text.slice(padding))) return `illegal base64 data at input byte ${padding}`;
  if (text.length % 4 !== 0) return `illegal base64 data at input byte ${text.length - (text.length % 4)}`;
  return undefined;
}
