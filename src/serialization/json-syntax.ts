/**
 * The first syntax error of a JSON text, worded as Go's encoding/json words it. Upstream's decode
 * errors embed this text (`couldn't get version/kind; json parse error: invalid character ...`), so
 * clients and tests see the same message from Capstan. Only called once JSON.parse has failed (or
 * nesting is too deep), so it favours clarity over speed.
 */
import { goQuoteByte } from './go-format.js';

/**
 * Nesting limit for request bodies. Go allows 10000 levels; here the engine's own recursion sets
 * the bound (structuredClone fails near 2000 levels, JSON.stringify near 4000), so deeper bodies
 * are refused at decode, in Go's words, rather than failing later as a 500.
 */
export const MAX_JSON_DEPTH = 1000;

export const UNEXPECTED_END = 'unexpected end of JSON input';

const enum Expect {
  /** A value must start here. */
  Value,
  /** After `{`: a key or `}`. */
  KeyOrEnd,
  /** After `,` in an object: a key. */
  Key,
  /** After a key: `:`. */
  Colon,
  /** After a member value: `,` or `}`. */
  ObjectNext,
  /** After `[`: a value or `]`. */
  ValueOrEnd,
  /** After an element: `,` or `]`. */
  ArrayNext,
  /** After the top-level value: only whitespace. */
  End,
}

const CONTEXT: Record<Expect, string> = {
  [Expect.Value]: 'looking for beginning of value',
  [Expect.KeyOrEnd]: 'looking for beginning of object key string',
  [Expect.Key]: 'looking for beginning of object key string',
  [Expect.Colon]: 'after object key',
  [Expect.ObjectNext]: 'after object key:value pair',
  [Expect.ValueOrEnd]: 'looking for beginning of value',
  [Expect.ArrayNext]: 'after array element',
  [Expect.End]: 'after top-level value',
};

function invalid(b: number, context: string): string {
  return `invalid character ${goQuoteByte(b)} ${context}`;
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

function isHex(b: number): boolean {
  return isDigit(b) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46);
}

/** A scan step's outcome: the index after the token, or an error message. */
type Step = number | string;

function scanString(data: Uint8Array, start: number): Step {
  let i = start + 1;
  while (i < data.length) {
    const b = data[i]!;
    if (b === 0x22) return i + 1;
    if (b < 0x20) return invalid(b, 'in string literal');
    if (b !== 0x5c) {
      i++;
      continue;
    }
    i++;
    if (i >= data.length) return UNEXPECTED_END;
    const e = data[i]!;
    if (e === 0x75) {
      for (let k = 1; k <= 4; k++) {
        if (i + k >= data.length) return UNEXPECTED_END;
        const h = data[i + k]!;
        if (!isHex(h)) return invalid(h, 'in \\u hexadecimal character escape');
      }
      i += 5;
    } else if ('"\\/bfnrt'.includes(String.fromCharCode(e))) {
      i++;
    } else {
      return invalid(e, 'in string escape code');
    }
  }
  return UNEXPECTED_END;
}

/** Scans a number; the byte that ends it is judged by the caller's state, as Go's scanner does. */
function scanNumber(data: Uint8Array, start: number): Step {
  let i = start;
  if (data[i] === 0x2d) {
    i++;
    if (i >= data.length) return UNEXPECTED_END;
    if (!isDigit(data[i]!)) return invalid(data[i]!, 'in numeric literal');
  }
  if (data[i] === 0x30) i++;
  else while (i < data.length && isDigit(data[i]!)) i++;
  if (data[i] === 0x2e) {
    i++;
    if (i >= data.length) return UNEXPECTED_END;
    if (!isDigit(data[i]!)) return invalid(data[i]!, 'after decimal point in numeric literal');
    while (i < data.length && isDigit(data[i]!)) i++;
  }
  if (data[i] === 0x65 || data[i] === 0x45) {
    i++;
    if (data[i] === 0x2b || data[i] === 0x2d) i++;
    if (i >= data.length) return UNEXPECTED_END;
    if (!isDigit(data[i]!)) return invalid(data[i]!, 'in exponent of numeric literal');
    while (i < data.length && isDigit(data[i]!)) i++;
  }
  return i;
}

function scanLiteral(data: Uint8Array, start: number, word: string): Step {
  for (let k = 1; k < word.length; k++) {
    if (start + k >= data.length) return UNEXPECTED_END;
    const b = data[start + k]!;
    if (b !== word.charCodeAt(k)) return invalid(b, `in literal ${word} (expecting '${word[k]}')`);
  }
  return start + word.length;
}

function scanScalar(data: Uint8Array, i: number, context: string): Step {
  const b = data[i]!;
  if (b === 0x22) return scanString(data, i);
  if (b === 0x2d || isDigit(b)) return scanNumber(data, i);
  if (b === 0x74) return scanLiteral(data, i, 'true');
  if (b === 0x66) return scanLiteral(data, i, 'false');
  if (b === 0x6e) return scanLiteral(data, i, 'null');
  return invalid(b, context);
}

/** Walks the text token by token; each step returns an error message or undefined. */
class SyntaxScanner {
  /** Open containers: true for an object, false for an array. */
  private readonly stack: boolean[] = [];
  private expect = Expect.Value;
  private i = 0;

  constructor(private readonly data: Uint8Array) {}

  run(): string | undefined {
    while (this.i < this.data.length) {
      const b = this.data[this.i]!;
      if (isSpace(b)) {
        this.i++;
        continue;
      }
      const error = this.step(b);
      if (error !== undefined) return error;
    }
    return this.expect === Expect.End ? undefined : UNEXPECTED_END;
  }

  private step(b: number): string | undefined {
    switch (this.expect) {
      case Expect.Value:
      case Expect.ValueOrEnd:
        return this.value(b);
      case Expect.KeyOrEnd:
      case Expect.Key:
        return this.key(b);
      case Expect.Colon:
        if (b !== 0x3a) return invalid(b, CONTEXT[this.expect]);
        this.i++;
        this.expect = Expect.Value;
        return undefined;
      case Expect.ObjectNext:
      case Expect.ArrayNext:
        return this.separator(b);
      case Expect.End:
        return invalid(b, CONTEXT[this.expect]);
    }
  }

  private afterValue(): Expect {
    if (this.stack.length === 0) return Expect.End;
    return this.stack[this.stack.length - 1] ? Expect.ObjectNext : Expect.ArrayNext;
  }

  private close(): undefined {
    this.stack.pop();
    this.i++;
    this.expect = this.afterValue();
    return undefined;
  }

  /** Advances past a scanned token, or passes on its error. */
  private advance(step: Step, next: Expect): string | undefined {
    if (typeof step === 'string') return step;
    this.i = step;
    this.expect = next;
    return undefined;
  }

  private value(b: number): string | undefined {
    if (b === 0x5d && this.expect === Expect.ValueOrEnd) return this.close();
    if (b === 0x7b || b === 0x5b) {
      if (this.stack.length >= MAX_JSON_DEPTH) return invalid(b, 'exceeded max depth');
      this.stack.push(b === 0x7b);
      this.i++;
      this.expect = b === 0x7b ? Expect.KeyOrEnd : Expect.ValueOrEnd;
      return undefined;
    }
    const step = scanScalar(this.data, this.i, CONTEXT[this.expect]);
    return this.advance(step, typeof step === 'string' ? this.expect : this.afterValue());
  }

  private key(b: number): string | undefined {
    if (b === 0x7d && this.expect === Expect.KeyOrEnd) return this.close();
    if (b !== 0x22) return invalid(b, CONTEXT[this.expect]);
    return this.advance(scanString(this.data, this.i), Expect.Colon);
  }

  private separator(b: number): string | undefined {
    const inObject = this.expect === Expect.ObjectNext;
    if (b === (inObject ? 0x7d : 0x5d)) return this.close();
    if (b !== 0x2c) return invalid(b, CONTEXT[this.expect]);
    this.i++;
    this.expect = inObject ? Expect.Key : Expect.Value;
    return undefined;
  }
}

/**
 * The Go error message for the first syntax error in `data`, or undefined if Go would accept it.
 * Nesting deeper than {@link MAX_JSON_DEPTH} is an error, worded as Go words its own limit.
 */
export function findJsonSyntaxError(data: Uint8Array): string | undefined {
  return new SyntaxScanner(data).run();
}
