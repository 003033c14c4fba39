/**
 * Resource quantities in upstream's canonical text form, as a stored quantity prints in upstream's
 * tables whatever way the client wrote it: "1536Mi" for "1.5Gi", "1500m" for "1.5", "12k" for
 * "12000", "1e3" stays "1e3". The rules:
 *  - the value is kept exactly (BigInt mantissa times a power of ten), rounded up to nano units;
 *  - binary suffixes (Ki, Mi...) stay binary when the value is a whole number of at least 1024,
 *    using the largest power of 1024 that divides it; otherwise the value is shown in decimal;
 *  - decimal values drop trailing zeros into an exponent that is a multiple of three, shown as an
 *    SI suffix (n, u, m, k, M, G, T, P, E) or, for exponent notation, as `eN`.
 */

const QUANTITY = /^([+-]?)(\d*)(?:\.(\d*))?(?:(Ki|Mi|Gi|Ti|Pi|Ei)|[eE]([+-]?\d+)|([numkMGTPE]))?$/;
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const DECIMAL_EXPONENTS: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_SUFFIXES: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(DECIMAL_EXPONENTS).map(([suffix, exponent]) => [exponent, suffix]),
);

type Format = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

/** |value| = mantissa × 10^exponent; the sign is kept apart. */
interface Decimal {
  mantissa: bigint;
  exponent: number;
}

const TEN = 10n;
const KIBI = 1024n;

function parse(text: string): { negative: boolean; value: Decimal; format: Format } | undefined {
  const match = QUANTITY.exec(text.trim());
  if (match === null) return undefined;
  const [, sign, whole = '', fraction = '', binary, exponentText, decimal] = match;
  if (whole === '' && fraction === '') return undefined;
  let mantissa = BigInt(whole + fraction);
  let exponent = -fraction.length;
  if (binary !== undefined) mantissa *= KIBI ** BigInt(BINARY_SUFFIXES.indexOf(binary));
  else if (exponentText !== undefined) exponent += Number(exponentText);
  else exponent += DECIMAL_EXPONENTS[decimal ?? ''];
  const format: Format = binary !== undefined ? 'BinarySI' : exponentText !== undefined ? 'DecimalExponent' : 'DecimalSI';
  return { negative: sign === '-', value: roundUpToNano({ mantissa, exponent }), format };
}

/** Upstream keeps nano precision and rounds anything finer away from zero. */
function roundUpToNano(value: Decimal): Decimal {
  if (value.exponent >= -9) return value;
  const divisor = TEN ** BigInt(-9 - value.exponent);
  const quotient = value.mantissa / divisor;
  return { mantissa: value.mantissa % divisor === 0n ? quotient : quotient + 1n, exponent: -9 };
}

/** The value as a whole number, or undefined when it has a fractional part. */
function wholeNumber(value: Decimal): bigint | undefined {
  if (value.exponent >= 0) return value.mantissa * TEN ** BigInt(value.exponent);
  const divisor = TEN ** BigInt(-value.exponent);
  return value.mantissa % divisor === 0n ? value.mantissa / divisor : undefined;
}

function binaryText(whole: bigint): string {
  let amount = whole;
  let power = 0;
  while (power < BINARY_SUFFIXES.length - 1 && amount % KIBI === 0n) {
    amount /= KIBI;
    power++;
  }
  return `${amount}${BINARY_SUFFIXES[power]}`;
}

function decimalText(value: Decimal, format: Format): string {
  let { mantissa, exponent } = value;
  while (mantissa % TEN === 0n) {
    mantissa /= TEN;
    exponent++;
  }
  // Lower the exponent to a multiple of three, moving the difference into the mantissa.
  const excess = ((exponent % 3) + 3) % 3;
  mantissa *= TEN ** BigInt(excess);
  exponent -= excess;
  const suffix = format === 'DecimalSI' ? DECIMAL_SUFFIXES[exponent] : exponent === 0 ? '' : undefined;
  return `${mantissa}${suffix ?? `e${exponent}`}`;
}

/**
 * The canonical text of a quantity, or undefined when `text` is not a quantity.
 * Exact for any size; never throws.
 */
export function canonicalQuantity(text: string): string | undefined {
  const parsed = parse(text);
  if (parsed === undefined) return undefined;
  const { negative, value } = parsed;
  if (value.mantissa === 0n) return '0';
  let format = parsed.format;
  const whole = wholeNumber(value);
  if (format === 'BinarySI' && (whole === undefined || whole < KIBI)) format = 'DecimalSI';
  const body = format === 'BinarySI' && whole !== undefined ? binaryText(whole) : decimalText(value, format);
  return negative ? `-${body}` : body;
}
