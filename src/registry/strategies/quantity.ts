/**
 * Resource quantities ("100m", "1Gi", "2e3") read as numbers, precise enough to compare requests
 * with limits. Unparseable quantities read as NaN (schema checks reject them before this runs).
 */

const SUFFIXES: Readonly<Record<string, number>> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/;

/** The value of a quantity (a string, or a number as YAML clients send them). */
export function quantityValue(quantity: unknown): number {
  if (typeof quantity === 'number') return quantity;
  if (typeof quantity !== 'string') return Number.NaN;
  const match = QUANTITY.exec(quantity.trim());
  if (!match) return Number.NaN;
  const base = Number(match[1]);
  if (match[2] !== undefined) return base * 10 ** Number(match[2].slice(1));
  return base * SUFFIXES[match[3] ?? '']!;
}
