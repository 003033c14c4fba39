/**
 * Media type parsing for the two request headers that carry them. Content-Type is parsed strictly
 * (as Go's mime.ParseMediaType, which upstream uses: anything malformed is an unsupported type);
 * Accept leniently (as upstream's goautoneg: malformed clauses are skipped, not fatal).
 */

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export interface MediaType {
  /** Lowercase, e.g. `application`. */
  readonly type: string;
  /** Lowercase, e.g. `json`. */
  readonly subtype: string;
  /** Parameter names lowercase, values as sent (unquoted). */
  readonly params: ReadonlyMap<string, string>;
}

export interface AcceptClause extends MediaType {
  /** Quality, 1 when absent; 0 when unparsable, as upstream reads it. */
  readonly q: number;
}

function unquote(value: string): string | undefined {
  if (!value.startsWith('"')) return TOKEN.test(value) ? value : undefined;
  if (value.length < 2 || !value.endsWith('"')) return undefined;
  return value.slice(1, -1).replace(/\\(.)/g, '$1');
}

/**
 * A Content-Type value as `type/subtype` and parameters, or undefined if it is malformed (which
 * upstream answers with 415, as for an unknown type).
 */
export function parseContentType(header: string): MediaType | undefined {
  const [full = '', ...rawParams] = header.split(';');
  const slash = full.trim().split('/');
  if (slash.length !== 2 || !TOKEN.test(slash[0]!) || !TOKEN.test(slash[1]!)) return undefined;
  const params = new Map<string, string>();
  for (const raw of rawParams) {
    if (raw.trim() === '') continue;
    const eq = raw.indexOf('=');
    if (eq < 0) return undefined;
    const name = raw.slice(0, eq).trim().toLowerCase();
    const value = unquote(raw.slice(eq + 1).trim());
    if (!TOKEN.test(name) || value === undefined || params.has(name)) return undefined;
    params.set(name, value);
  }
  return { type: slash[0]!.toLowerCase(), subtype: slash[1]!.toLowerCase(), params };
}

function parseClause(part: string): AcceptClause | undefined {
  const [range = '', ...rawParams] = part.split(';');
  const pieces = range.trim().split('/');
  let type: string;
  let subtype: string;
  if (pieces.length === 1 && pieces[0] === '*') [type, subtype] = ['*', '*'];
  else if (pieces.length === 2) [type, subtype] = [pieces[0]!.trim().toLowerCase(), pieces[1]!.trim().toLowerCase()];
  else return undefined;
  if (type === '' || subtype === '') return undefined;
  const params = new Map<string, string>();
  let q = 1;
  for (const raw of rawParams) {
    const kv = raw.split('=');
    if (kv.length !== 2) continue;
    const name = kv[0]!.trim().toLowerCase();
    const value = kv[1]!.trim();
    if (name === 'q') {
      const parsed = Number(value);
      q = value !== '' && Number.isFinite(parsed) ? parsed : 0;
    } else {
      params.set(name, value);
    }
  }
  return { type, subtype, params, q };
}

function specificity(c: AcceptClause): number {
  return (c.type === '*' ? 0 : 2) + (c.subtype === '*' ? 0 : 1);
}

/**
 * The clauses of an Accept header, most preferred first: by quality, then concrete types before
 * wildcards, then in the order sent. Clauses with q=0 are dropped: the client refuses them.
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const part of header.split(',')) {
    const clause = parseClause(part);
    if (clause !== undefined && clause.q > 0) clauses.push(clause);
  }
  return clauses.sort((a, b) => b.q - a.q || specificity(b) - specificity(a));
}
