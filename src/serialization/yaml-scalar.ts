/**
 * How upstream's YAML output (sigs.k8s.io/yaml over go-yaml v2) writes a string: plain when a
 * YAML 1.1 reader would read it back as the same string, otherwise quoted; and which styles the
 * characters of the string allow. Written from go-yaml's documented behaviour so that `kubectl`
 * users and golden files see the same text: `"2026-11-21T08:42:17Z"` and `"true"` quoted, `nginx`
 * plain, `'*'` single-quoted, `"a\tb"` double-quoted.
 */

/**
 * Plain scalars that YAML 1.1 reads as booleans, null, infinities or NaN. (go-yaml's table also
 * holds `<<`, but never consults it for a string starting with `<`.)
 */
const RESERVED_WORDS = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
]);

const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_FLOAT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?(inf|infinity|nan)$/i;
const GO_INT_BASE0 = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:([Tt])|( ))(\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,](\d+))?(Z|[+-]\d{2}:\d{2})?)?$/;

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** Whether Go's strconv.ParseInt(s, 0, 64) or ParseUint(s, 0, 64) accepts `s`. */
function isGoInteger(s: string): boolean {
  const m = GO_INT_BASE0.exec(s);
  if (m === null) return false;
  const [, sign, digits] = m as unknown as [string, string, string];
  let magnitude: bigint;
  if (/^0[oO]/.test(digits)) magnitude = BigInt(`0o${digits.slice(2)}`);
  else if (/^0[0-7]+$/.test(digits)) magnitude = BigInt(`0o${digits.slice(1)}`);
  else magnitude = BigInt(digits);
  return sign === '-' ? -magnitude >= INT64_MIN : magnitude <= UINT64_MAX;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether go-yaml would read `s` as a timestamp (its four accepted layouts, with range checks). */
function isTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (m === null) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (m[6] === undefined) return true;
  // The `T`/`t` layouts require a zone; the space-separated layout has none.
  if ((m[4] !== undefined) !== (m[10] !== undefined)) return false;
  return Number(m[6]) < 24 && Number(m[7]) < 60 && Number(m[8]) < 60;
}

/**
 * Whether an unquoted `s` would be read back as the string `s` by a YAML 1.1 reader (go-yaml v2's
 * resolver): false for booleans such as `yes`, null, numbers, timestamps and base-60 floats.
 */
export function plainReadsAsString(s: string): boolean {
  if (RESERVED_WORDS.has(s)) return false;
  const first = s.charCodeAt(0);
  if (first === 0x2e) return !GO_FLOAT.test(s);
  const isDigit = first >= 0x30 && first <= 0x39;
  if (!isDigit && first !== 0x2b && first !== 0x2d) return true;
  if (isTimestamp(s)) return false;
  const plain = s.replaceAll('_', '');
  if (isGoInteger(plain)) return false;
  if (YAML_FLOAT.test(plain)) return false;
  return !BASE60_FLOAT.test(s);
}

/** Characters libyaml may write unescaped. Notably not TAB and nothing beyond U+FFFF. */
export function isYamlPrintable(cp: number): boolean {
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0x85 ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

export function isYamlBreak(cp: number): boolean {
  return cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
}

/**
 * Which styles a string's characters allow, as libyaml's emitter analysis decides. Only block
 * context is analysed: Capstan never writes flow collections with content.
 */
export interface ScalarAnalysis {
  readonly multiline: boolean;
  readonly plainAllowed: boolean;
  readonly singleQuotedAllowed: boolean;
  readonly blockAllowed: boolean;
}

const EMPTY_ANALYSIS: ScalarAnalysis = { multiline: false, plainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };

/** Characters that open a YAML construct at the start of a plain scalar. */
const LEADING_INDICATOR = new Set('#,[]{}&*!|>\'"%@`');

/** Whether the character at `i` would be read as YAML syntax in a plain block scalar. */
function isIndicator(ch: string, first: boolean, precededByBlank: boolean, followedByBlank: boolean): boolean {
  if (first) {
    if (LEADING_INDICATOR.has(ch)) return true;
    return (ch === '?' || ch === ':' || ch === '-') && followedByBlank;
  }
  return (ch === ':' && followedByBlank) || (ch === '#' && precededByBlank);
}

/** Analyses `s` for the emitter. */
export function analyzeScalar(s: string): ScalarAnalysis {
  if (s.length === 0) return EMPTY_ANALYSIS;
  const chars = Array.from(s);
  let indicators = s.startsWith('---') || s.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let precededByBlank = true;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const cp = ch.codePointAt(0)!;
    const next = chars[i + 1];
    if (isIndicator(ch, i === 0, precededByBlank, next === undefined || next === ' ' || next === '\t')) indicators = true;
    if (!isYamlPrintable(cp)) special = true;
    const last = i === chars.length - 1;
    if (ch === ' ') {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isYamlBreak(cp)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = previousBreak = false;
    }
    precededByBlank = ch === ' ' || ch === '\t' || isYamlBreak(cp);
  }
  const plainAllowed = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak || breakSpace || spaceBreak || special || lineBreaks || indicators);
  return {
    multiline: lineBreaks,
    plainAllowed,
    singleQuotedAllowed: !(breakSpace || spaceBreak || special),
    blockAllowed: !(trailingSpace || spaceBreak || special),
  };
}
