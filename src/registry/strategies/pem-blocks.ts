/**
 * PEM decoding as Go's encoding/pem reads it, because upstream's certificate rules ("PEM block
 * type must be CERTIFICATE REQUEST", "no PEM block headers are permitted") depend on exactly which
 * text it accepts as a block: the first well-formed block wins, junk around blocks is skipped, and
 * a block whose end line or base64 body is broken is passed over as if it were junk.
 *
 * Worked example: "junk\n-----BEGIN A-----\nbad!\n-----END A-----\n-----BEGIN B-----\nAQI=\n-----END B-----\n"
 * decodes to block B (bytes 01 02); block A is skipped because "bad!" is not base64.
 */

export interface PemBlock {
  readonly type: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly bytes: Buffer;
}

const BEGIN = '\n-----BEGIN ';
const END = '\n-----END ';
const DASHES = '-----';

/**
 * The first PEM block in `data` and the data after it, or undefined when there is none. Never
 * throws.
 */
export function decodePem(data: Buffer): { block: PemBlock; rest: Buffer } | undefined {
  // latin1 maps each byte to one character, so string offsets are byte offsets.
  const text = data.toString('latin1');
  let at = 0;
  for (;;) {
    const typeStart = startOfType(text, at);
    if (typeStart === undefined) return undefined;
    const [typeLine, afterType] = line(text, typeStart);
    at = afterType;
    if (!typeLine.endsWith(DASHES)) continue;
    const type = typeLine.slice(0, -DASHES.length);
    const headers = new Map<string, string>();
    let body = afterType;
    for (;;) {
      if (body >= text.length) return undefined;
      const [header, next] = line(text, body);
      const colon = header.indexOf(':');
      if (colon < 0) break;
      headers.set(header.slice(0, colon).trim(), header.slice(colon + 1).trim());
      body = next;
    }
    at = body;
    const block = endOfBlock(text, body, type, headers.size === 0);
    if (!block) continue;
    const bytes = decodeBase64(text.slice(body, block.endIndex));
    if (!bytes) continue;
    return { block: { type, headers, bytes }, rest: data.subarray(block.restStart) };
  }
}

/** Where the type of the next BEGIN line at or after `from` starts (a BEGIN line, or one right at `from`). */
function startOfType(text: string, from: number): number | undefined {
  if (text.startsWith(BEGIN.slice(1), from)) return from + BEGIN.length - 1;
  const begin = text.indexOf(BEGIN, from);
  return begin < 0 ? undefined : begin + BEGIN.length;
}

/** Where the base64 body ends and what follows the END line; undefined when the END line is broken. */
function endOfBlock(text: string, body: number, type: string, noHeaders: boolean): { endIndex: number; restStart: number } | undefined {
  // Without headers an empty block may end at once, with no newline before its END line.
  const immediate = noHeaders && text.startsWith(END.slice(1), body);
  const endIndex = immediate ? body : text.indexOf(END, body);
  if (endIndex < 0) return undefined;
  const trailerStart = endIndex + (immediate ? END.length - 1 : END.length);
  const trailer = text.slice(trailerStart, trailerStart + type.length + DASHES.length);
  if (trailer !== type + DASHES) return undefined;
  const [restOfLine, restStart] = line(text, trailerStart + trailer.length);
  if (restOfLine !== '') return undefined;
  return { endIndex, restStart };
}

/** The line starting at `from` without its line break and trailing blanks, and where the next starts. */
function line(text: string, from: number): [string, number] {
  const newline = text.indexOf('\n', from);
  if (newline < 0) return [text.slice(from).replace(/[ \t]+$/, ''), text.length];
  return [text.slice(from, newline).replace(/\r$/, '').replace(/[ \t]+$/, ''), newline + 1];
}

/** Standard padded base64, ignoring blanks and line breaks; undefined when it does not decode. */
function decodeBase64(body: string): Buffer | undefined {
  const compact = body.replace(/[ \t\r\n]/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return undefined;
  return Buffer.from(compact, 'base64');
}
