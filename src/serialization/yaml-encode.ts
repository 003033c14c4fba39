/**
 * The object model as YAML text in the form upstream's `application/yaml` responses take
 * (sigs.k8s.io/yaml, i.e. go-yaml v2's emitter): block style, 2-space indentation, sequences in a
 * mapping not indented (`- ` under the key), keys sorted (see yaml-key-order), strings quoted only
 * when needed, multi-line strings as literal blocks, long scalars folded at 80 columns, `{}` and
 * `[]` for empty collections.
 *
 * The emitter keeps libyaml's bookkeeping (column, indent stack, whether the line so far is only
 * indentation or whitespace) because the output depends on it in small ways: where a folded line
 * may break, when `- - a` stays on one line, when a `? ` key is needed.
 */
import { analyzeScalar, isYamlBreak, isYamlPrintable, plainReadsAsString } from './yaml-scalar.js';
import { formatGoFloat } from './go-format.js';
import { sortYamlKeys } from './yaml-key-order.js';

const BEST_INDENT = 2;
const BEST_WIDTH = 80;
/** Longer keys (in UTF-8 bytes), and multi-line ones, are written as `? key`. */
const MAX_SIMPLE_KEY_BYTES = 128;

type Style = 'plain' | 'single' | 'double' | 'literal';

interface NodeContext {
  readonly mapping?: boolean;
  readonly simpleKey?: boolean;
}

const ESCAPES: Readonly<Record<number, string>> = {
  0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', 0x1b: 'e',
  0x22: '"', 0x5c: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P',
};

function hexEscape(cp: number): string {
  const [letter, width] = cp <= 0xff ? ['x', 2] : cp <= 0xffff ? ['u', 4] : ['U', 8];
  return letter + cp.toString(16).toUpperCase().padStart(width, '0');
}

function formatNumber(n: number): string {
  // go-yaml reads a JSON integer as an int and prints its digits; JavaScript cannot tell `1.0`
  // from `1`, so every integral value below 2^63 is treated as an integer.
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  return formatGoFloat(n);
}

class Emitter {
  private readonly out: string[] = [];
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  /** The last character written is whitespace (or nothing has been written on this line). */
  private whitespace = true;
  /** The line so far holds only indentation (and indicators that count as indentation). */
  private indention = true;

  text(): string {
    return this.out.join('');
  }

  node(value: unknown, ctx: NodeContext = {}): void {
    if (Array.isArray(value)) {
      if (value.length === 0) this.emptyFlow('[', ']');
      else this.blockSequence(value, ctx.mapping === true);
    } else if (typeof value === 'object' && value !== null) {
      // As in JSON, a key whose value is undefined is absent.
      const keys = sortYamlKeys(Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined));
      if (keys.length === 0) this.emptyFlow('{', '}');
      else this.blockMapping(value as Record<string, unknown>, keys);
    } else {
      this.scalar(value, ctx);
    }
  }

  finish(): void {
    if (this.column !== 0) this.putBreak();
  }

  private put(s: string): void {
    this.out.push(s);
    this.column++;
  }

  private putBreak(): void {
    this.out.push('\n');
    this.column = 0;
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  private popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private indicator(text: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    for (const ch of text) this.put(ch);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private emptyFlow(open: string, close: string): void {
    this.indicator(open, true, true, false);
    this.increaseIndent(true, false);
    this.popIndent();
    this.indicator(close, false, false, false);
  }

  private blockSequence(items: readonly unknown[], mappingContext: boolean): void {
    this.increaseIndent(false, mappingContext && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.indicator('-', true, false, true);
      this.node(item);
    }
    this.popIndent();
  }

  private blockMapping(obj: Record<string, unknown>, keys: readonly string[]): void {
    this.increaseIndent(false, false);
    for (const key of keys) {
      this.writeIndent();
      if (Buffer.byteLength(key) <= MAX_SIMPLE_KEY_BYTES && !analyzeScalar(key).multiline) {
        this.scalar(key, { mapping: true, simpleKey: true });
        this.indicator(':', false, false, false);
      } else {
        this.indicator('?', true, false, true);
        this.scalar(key, { mapping: true });
        this.writeIndent();
        this.indicator(':', true, false, true);
      }
      this.node(obj[key], { mapping: true });
    }
    this.popIndent();
  }

  private scalar(value: unknown, ctx: NodeContext): void {
    let text: string;
    let requested: Style;
    if (typeof value === 'string') {
      text = value;
      requested = value.includes('\n') ? 'literal' : plainReadsAsString(value) ? 'plain' : 'double';
    } else {
      text = typeof value === 'number' ? formatNumber(value) : value === undefined ? 'null' : String(value);
      requested = 'plain';
    }
    const style = this.selectStyle(text, requested, ctx.simpleKey === true);
    this.increaseIndent(true, false);
    const allowBreaks = ctx.simpleKey !== true;
    if (style === 'plain') this.plain(text, allowBreaks);
    else if (style === 'single') this.singleQuoted(text, allowBreaks);
    else if (style === 'double') this.doubleQuoted(text, allowBreaks);
    else this.literal(text);
    this.popIndent();
  }

  private selectStyle(text: string, requested: Style, simpleKey: boolean): Style {
    const a = analyzeScalar(text);
    let style = requested;
    if (simpleKey && a.multiline) style = 'double';
    // Scalars are only ever written in block context: flow collections here are always empty.
    if (style === 'plain') {
      if (!a.plainAllowed) style = 'single';
      if (text.length === 0 && simpleKey) style = 'single';
    }
    if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
    if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
    // Line breaks other than LF are printable but would not survive a single-quoted or plain
    // scalar unchanged; libyaml only meets them in corner cases, so they always get escapes here.
    if (style !== 'double' && /[\r\u0085\u2028\u2029]/.test(text)) style = 'double';
    return style;
  }

  private plain(text: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    const chars = Array.from(text);
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && chars[i + 1] !== ' ') this.writeIndent();
        else this.put(ch);
        spaces = true;
      } else {
        this.put(ch);
        this.indention = false;
        spaces = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private singleQuoted(text: string, allowBreaks: boolean): void {
    this.indicator("'", true, false, false);
    const chars = Array.from(text);
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      if (ch === ' ') {
        const canFold = allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < chars.length - 1 && chars[i + 1] !== ' ';
        if (canFold) this.writeIndent();
        else this.put(ch);
        spaces = true;
      } else {
        if (ch === "'") this.put("'");
        this.put(ch);
        this.indention = false;
        spaces = false;
      }
    }
    this.indicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private doubleQuoted(text: string, allowBreaks: boolean): void {
    this.indicator('"', true, false, false);
    const chars = Array.from(text);
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      const cp = ch.codePointAt(0)!;
      if (!isYamlPrintable(cp) || cp === 0xfeff || isYamlBreak(cp) || ch === '"' || ch === '\\') {
        const short = ESCAPES[cp];
        for (const c of '\\' + (short ?? hexEscape(cp))) this.put(c);
        spaces = false;
      } else if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < chars.length - 1) {
          this.writeIndent();
          // A folded break reads back as one space; an escaped space keeps a following one.
          if (chars[i + 1] === ' ') this.put('\\');
        } else {
          this.put(ch);
        }
        spaces = true;
      } else {
        this.put(ch);
        spaces = false;
      }
    }
    this.indicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private literal(text: string): void {
    this.indicator('|', true, false, false);
    this.blockHints(text);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const ch of text) {
      if (ch === '\n') {
        this.putBreak();
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(ch);
        this.indention = false;
        breaks = false;
      }
    }
  }

  /** Indentation hint for text starting with a space or break; chomping `-` or `+` for its end. */
  private blockHints(text: string): void {
    if (text.startsWith(' ') || text.startsWith('\n')) this.indicator(String(BEST_INDENT), false, false, false);
    let chomp = '';
    if (!text.endsWith('\n')) chomp = '-';
    else if (text.length === 1 || text.endsWith('\n\n')) chomp = '+';
    if (chomp !== '') this.indicator(chomp, false, false, false);
  }
}

/**
 * YAML text for `value` (plain JSON data: objects, arrays, strings, finite numbers, booleans,
 * null), ending with a newline. Does not modify `value`.
 */
export function encodeYaml(value: unknown): string {
  const emitter = new Emitter();
  emitter.node(value);
  emitter.finish();
  return emitter.text();
}
