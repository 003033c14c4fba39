/**
 * `--token-auth-file`: static bearer tokens from a CSV file, one per line as upstream reads it:
 * `token,user name,user uid[,"group1,group2"]`. Read once at startup; a file upstream would refuse
 * (fewer than three columns, broken quoting) stops the server with a message naming it.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { TokenAuthenticator } from './bearer-token-authenticator.js';
import type { UserInfo } from './user-info.js';

type ParseCsv = (input: string, options: { relax_column_count: boolean; skip_empty_lines: boolean; record_delimiter: string[] }) => string[][];

export class TokenFileAuthenticator implements TokenAuthenticator {
  constructor(private readonly users: ReadonlyMap<string, UserInfo>) {}

  authenticateToken(token: string): UserInfo | undefined {
    return this.users.get(token);
  }
}

/**
 * Reads the token file at `path`. `warn` hears of records upstream skips or overrides (an empty
 * token; a token given twice, where the later record wins). Rejects with an Error naming the file.
 */
export async function readTokenFile(path: string, warn: (message: string) => void): Promise<TokenFileAuthenticator> {
  const text = await readFile(path, 'utf8');
  // Loaded here, not at startup: most servers run without a token file.
  const { parse } = createRequire(import.meta.url)('csv-parse/sync') as { parse: ParseCsv };
  let records: string[][];
  try {
    // As Go's encoding/csv: a line may end in \r\n or \n, whatever the first line ended in.
    records = parse(text, { relax_column_count: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'] });
  } catch (err) {
    throw new Error(`token file '${path}': ${(err as Error).message}`);
  }
  const users = new Map<string, UserInfo>();
  records.forEach((record, index) => {
    if (record.length < 3) throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    const [token, name, uid, groups] = record as [string, string, string, string | undefined];
    const recordNumber = index + 1;
    if (token === '') return warn(`empty token has been found in token file '${path}', record number '${recordNumber}'`);
    if (users.has(token)) warn(`duplicate token has been found in token file '${path}', record number '${recordNumber}'`);
    users.set(token, { name, ...(uid !== '' ? { uid } : {}), groups: groups === undefined ? [] : groups.split(',') });
  });
  return new TokenFileAuthenticator(users);
}
