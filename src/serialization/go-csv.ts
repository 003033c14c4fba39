/**
 * One record of Go's encoding/csv with its default settings, which is how pflag reads the value
 * of a string-slice flag (`--x a,"b,c"` is ["a", "b,c"]): fields split at commas and kept as they
 * are (no trimming, empty fields kept), double-quoted fields with `""` for a quote (a quoted field
 * may go on past a line break; otherwise a line break ends the record), and Go's errors for stray
 * quotes, since the flag's error message carries them.
 */

const BARE_QUOTE = 'bare " in non-quoted-field';
const QUOTE = 'extraneous or missing " in quoted-field';

/** The first record of `text`, as csv.Reader.Read returns it. */
export function readGoCsvRecord(text: string): string[] {
  const input = text.replace(/\r\n/g, '\n');
  const fail = (index: number, why: string): Error => {
    // Go names the line and the 1-based byte column of `index`, and the record's first line when
    // they differ.
    const before = input.slice(0, index);
    const line = before.split('\n').length;
    const column = Buffer.byteLength(before.slice(before.lastIndexOf('\n') + 1)) + 1;
    return new Error(`${line > 1 ? 'record on line 1; ' : ''}parse error on line ${line}, column ${column}: ${why}`);
  };
  const fields: string[] = [];
  let at = 0;
  for (;;) {
    if (input[at] !== '"') {
      const end = /[,\n]|$/.exec(input.slice(at))!.index + at;
      const field = input.slice(at, end);
      const quote = field.indexOf('"');
      if (quote >= 0) throw fail(at + quote, BARE_QUOTE);
      fields.push(field);
      if (input[end] !== ',') return fields;
      at = end + 1;
      continue;
    }
    let field = '';
    let from = at + 1;
    for (;;) {
      const quote = input.indexOf('"', from);
      if (quote < 0) throw fail(input.length, QUOTE);
      field += input.slice(from, quote);
      const next = input[quote + 1];
      if (next === '"') {
        field += '"';
        from = quote + 2;
        continue;
      }
      if (next !== ',' && next !== '\n' && next !== undefined) throw fail(quote, QUOTE);
      fields.push(field);
      if (next !== ',') return fields;
      at = quote + 2;
      break;
    }
  }
}
