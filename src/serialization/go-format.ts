/**
 * How Go prints values, because upstream embeds them in messages and output that clients read and
 * sometimes match: strings quoted as strconv.Quote / fmt's %q do (`duplicate field
 * "metadata.name"`, `Invalid value: "Bad_Name"`), floats as strconv's shortest 'g' format. JSON's
 * quoting and JavaScript's number formatting differ in places, so they cannot stand in.
 */

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x07: '\\a',
  0x08: '\\b',
  0x0c: '\\f',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x0b: '\\v',
  0x5c: '\\\\',
  0x22: '\\"',
};

/** Whether Go's unicode.IsPrint holds: letters, marks, numbers, punctuation, symbols and ASCII space. */
export function isGoPrintable(codePoint: number): boolean {
  if (codePoint === 0x20) return true;
  if (codePoint < 0x20 || codePoint === 0x7f) return false;
  return PRINTABLE.test(String.fromCodePoint(codePoint));
}

function escapeRune(cp: number): string {
  const short = SHORT_ESCAPES[cp];
  if (short !== undefined) return short;
  if (isGoPrintable(cp)) return String.fromCodePoint(cp);
  if (cp < 0x80) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/**
 * `s` in double quotes with Go's escapes. A lone surrogate (which Go's UTF-8 strings cannot hold)
 * is shown as U+FFFD, the character Go would have decoded in its place.
 */
export function goQuote(s: string): string {
  let out = '"';
  let plainFrom = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Fast path: printable ASCII other than quote and backslash needs no work.
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(plainFrom, i);
    let cp = s.codePointAt(i) as number;
    if (cp > 0xffff) i++;
    else if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    out += escapeRune(cp);
    plainFrom = i + 1;
  }
  return out + s.slice(plainFrom) + '"';
}

/**
 * One byte as Go's JSON scanner shows it in `invalid character 'x' ...`: the byte read as a Latin-1
 * character, quoted with single quotes.
 */
export function goQuoteByte(b: number): string {
  if (b === 0x27) return `'\\''`;
  if (b === 0x22) return `'"'`;
  const q = goQuote(String.fromCharCode(b));
  return `'${q.slice(1, -1)}'`;
}

/**
 * Go's strconv.FormatFloat(f, 'g', -1, 64), as go-yaml and fmt's %v print floats: shortest digits,
 * with an exponent below 1e-4 and from 1e6 up; NaN and infinities as YAML spells them.
 */
export function formatGoFloat(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
  const [mantissa, expText] = f.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  // Go switches to an exponent below 1e-4 and, for shortest formatting, from 1e6 up.
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(f);
}
