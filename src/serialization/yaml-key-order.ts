/**
 * The order in which upstream's YAML output lists mapping keys. sigs.k8s.io/yaml re-reads the JSON
 * into Go maps, so go-yaml sorts the keys: letters after other characters, and runs of digits
 * compared as numbers (`item2` before `item10`). So `apiVersion, data, kind, metadata`, not the
 * JSON order.
 */

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

function isLetter(ch: string): boolean {
  return LETTER.test(ch);
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && DIGIT.test(ch);
}

/** Reads the run of digits starting at `from`: its value (seeded with `seed`) and where it ends. */
function digitRun(chars: readonly string[], from: number, seed: number): [value: number, end: number] {
  let value = seed;
  let i = from;
  for (; i < chars.length && isDigit(chars[i]); i++) value = value * 10 + (chars[i]!.codePointAt(0)! - 0x30);
  return [value, i];
}

function less(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    const xl = isLetter(x);
    const yl = isLetter(y);
    if (xl && yl) return x.codePointAt(0)! < y.codePointAt(0)!;
    if (xl || yl) return yl;
    // A zero inside a number that already has a non-zero digit is significant, so both runs are
    // seeded with 1 to compare by length and value rather than dropping leading zeros.
    let seed = 0;
    if (x === '0' || y === '0') {
      for (let j = i - 1; j >= 0 && isDigit(a[j]); j--) {
        if (a[j] !== '0') {
          seed = 1;
          break;
        }
      }
    }
    const [xn, xEnd] = digitRun(a, i, seed);
    const [yn, yEnd] = digitRun(b, i, seed);
    if (xn !== yn) return xn < yn;
    if (xEnd !== yEnd) return xEnd < yEnd;
    return x.codePointAt(0)! < y.codePointAt(0)!;
  }
  return a.length < b.length;
}

/** `keys` sorted as go-yaml sorts string keys. Does not modify `keys`. */
export function sortYamlKeys(keys: readonly string[]): string[] {
  const runes = new Map(keys.map((k) => [k, Array.from(k)]));
  return [...keys].sort((p, q) => {
    const a = runes.get(p)!;
    const b = runes.get(q)!;
    return less(a, b) ? -1 : less(b, a) ? 1 : 0;
  });
}
