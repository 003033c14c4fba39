/**
 * Typed access to the raw strings commander collected, with upstream-style errors that name the
 * flag as the user spelled it: `invalid argument "abc" for "--secure-port" flag: ...`.
 */
import { parseDuration } from '../server/duration.js';
import { parseGoBool } from '../serialization/go-bool.js';
import { readGoCsvRecord } from '../serialization/go-csv.js';
import { parseGoFloat } from '../serialization/go-float.js';
import { goQuote } from '../serialization/go-format.js';
import { INT64_MAX, INT64_MIN, parseGoInt, type GoIntResult } from '../serialization/go-int.js';
import { parseCidr } from '../server/cidr.js';
import { isIpAddress } from '../util/ip-address.js';

/** A bad flag or value; its message is one line, meant for the user as is. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}

/**
 * The raw value of one flag: what the user typed, and the flag named as the user spelled it, the
 * way pflag names it (`-v, --v` for a flag with a shorthand).
 */
export interface RawFlag {
  readonly spelling: string;
  /** A string, a list (repeatable flags) or `true` (an optional-value flag given without one). */
  readonly value: string | readonly string[] | true;
}

export class FlagValues {
  constructor(private readonly raw: ReadonlyMap<string, RawFlag>) {}

  has(flag: string): boolean {
    return this.raw.has(flag);
  }

  string(flag: string): string | undefined {
    const raw = this.raw.get(flag);
    if (!raw) return undefined;
    if (raw.value === true) return '';
    return typeof raw.value === 'string' ? raw.value : raw.value.join(',');
  }

  /**
   * A pflag string-slice flag, exactly: each value read as one CSV record (fields kept as given,
   * empty ones too), repeats appended; an empty value adds nothing.
   */
  stringSlice(flag: string): string[] | undefined {
    const raw = this.raw.get(flag);
    if (!raw || raw.value === true) return raw ? [] : undefined;
    const fields: string[] = [];
    for (const value of typeof raw.value === 'string' ? [raw.value] : raw.value) {
      if (value !== '') fields.push(...this.convert(flag, () => readGoCsvRecord(value), value)!);
    }
    return fields;
  }

  /** A pflag string-array flag: each repetition one value, kept as given (commas included). */
  stringArray(flag: string): string[] | undefined {
    const raw = this.raw.get(flag);
    if (!raw || raw.value === true) return raw ? [] : undefined;
    return typeof raw.value === 'string' ? [raw.value] : [...raw.value];
  }

  /** Comma-separated and repeated values, flattened; empty entries dropped. */
  list(flag: string): string[] | undefined {
    const raw = this.raw.get(flag);
    if (!raw || raw.value === true) return raw ? [] : undefined;
    const values = typeof raw.value === 'string' ? [raw.value] : raw.value;
    return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  }

  /**
   * A pflag int flag: strconv.ParseInt(text, 0, 64), so Go's literals (0x1F, 0o17, 017, 1_000) are
   * read and a bad value gets strconv's words. Ranges are validate-options.ts's business, as upstream's.
   */
  int(flag: string): number | undefined {
    return this.convert(flag, (text) => Number(strconv(parseGoInt(text, 'ParseInt', INT64_MIN, INT64_MAX, 0))));
  }

  /**
   * An int64 flag of Go's own flag package, which upstream hands to pflag unchanged (the default
   * toleration seconds): the same syntax as `int`, but that package words its errors itself.
   */
  goFlagInt64(flag: string): number | undefined {
    return this.convert(flag, (text) => {
      const { value, error, outOfRange } = parseGoInt(text, 'ParseInt', INT64_MIN, INT64_MAX, 0);
      if (error === undefined) return Number(value);
      throw new Error(outOfRange ? 'value out of range' : 'parse error');
    });
  }

  /** strconv.ParseUint(text, 10, bits), as the verbosity level (-v) is read: 31 bits, for klog's int32. */
  uint(flag: string, bits: number): number | undefined {
    return this.convert(flag, (text) => Number(strconv(parseGoInt(text, 'ParseUint', 0n, 2n ** BigInt(bits) - 1n))));
  }

  /** A pflag float64 flag: strconv.ParseFloat(text, 64), with its words. */
  float64(flag: string): number | undefined {
    return this.convert(flag, (text) => {
      const { value, error } = parseGoFloat(text);
      if (error !== undefined) throw new Error(error);
      return value;
    });
  }

  bool(flag: string): boolean | undefined {
    const raw = this.raw.get(flag);
    if (raw?.value === true) return true;
    return this.convert(flag, (text) => {
      const b = parseGoBool(text);
      if (b === undefined) throw new Error(`strconv.ParseBool: parsing ${goQuote(text)}: invalid syntax`);
      return b;
    });
  }

  /**
   * A Go duration, in milliseconds. Negative ones are read, as pflag reads them; the flags that
   * cannot take one refuse it in validate-options.ts, with upstream's words.
   */
  duration(flag: string): number | undefined {
    return this.convert(flag, parseDuration);
  }

  ip(flag: string): string | undefined {
    return this.convert(flag, (text) => {
      if (text !== '' && !isIpAddress(text)) throw new Error('invalid IP address');
      return text;
    });
  }

  cidrs(flag: string): string[] | undefined {
    const values = this.list(flag);
    if (values === undefined) return undefined;
    for (const value of values) {
      try {
        parseCidr(value);
      } catch (err) {
        throw this.error(flag, value, (err as Error).message);
      }
    }
    return values;
  }

  /** `N1-N2`, `N+M` (N..N+M) or a single port, as upstream's port range syntax. */
  portRange(flag: string): { min: number; max: number } | undefined {
    return this.convert(flag, (text) => {
      const match = /^(\d+)(?:([-+])(\d+))?$/.exec(text.trim());
      if (!match) throw new Error(`unable to parse port range: ${text}`);
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[2] === '-' ? Number(match[3]) : min + Number(match[3]);
      if (min > max || max > 65535) throw new Error(`invalid port range: ${text}`);
      return { min, max };
    });
  }

  /** `Name=bool` pairs, comma-separated and repeatable. */
  featureGates(flag: string): Record<string, boolean> | undefined {
    const entries = this.list(flag);
    if (entries === undefined) return undefined;
    const gates: Record<string, boolean> = {};
    for (const entry of entries) {
      const eq = entry.indexOf('=');
      if (eq <= 0) throw this.error(flag, entry, `missing bool value for ${entry}`);
      const name = entry.slice(0, eq).trim();
      const value = parseGoBool(entry.slice(eq + 1).trim());
      if (value === undefined) throw this.error(flag, entry, `invalid value of ${entry}, err: invalid bool`);
      gates[name] = value;
    }
    return gates;
  }

  /** The flag as messages name it (see RawFlag), or the canonical name. */
  spelling(flag: string): string {
    return this.raw.get(flag)?.spelling ?? flag;
  }

  private convert<T>(flag: string, parse: (text: string) => T, text = this.string(flag)): T | undefined {
    if (text === undefined) return undefined;
    try {
      return parse(text);
    } catch (err) {
      throw this.error(flag, text, (err as Error).message);
    }
  }

  private error(flag: string, value: string, why: string): FlagError {
    return new FlagError(`invalid argument ${goQuote(value)} for "${this.spelling(flag)}" flag: ${why}`);
  }
}

/** A strconv result's value, or its error thrown for `convert` to word. */
function strconv({ value, error }: GoIntResult): bigint {
  if (error !== undefined) throw new Error(error);
  return value;
}
