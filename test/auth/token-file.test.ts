/**
 * --token-auth-file: the CSV records upstream accepts (three columns or more, groups in a quoted
 * fourth), the ones it skips or overrides with a warning, and the files it refuses.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTokenFile } from '../../src/auth/token-file.js';

const dir = mkdtempSync(join(tmpdir(), 'capstan-tokens-'));
let n = 0;
function file(text: string): string {
  const path = join(dir, `tokens-${n++}.csv`);
  writeFileSync(path, text);
  return path;
}

describe('readTokenFile', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads tokens with their user, uid and groups; skips blank lines', async () => {
    const warnings: string[] = [];
    const tokens = await readTokenFile(file('t1,alice,uid-1,"dev,ops"\n\nt2,bob,uid-2\r\nt3,carol,\n'), (m) => warnings.push(m));
    assert.deepEqual(tokens.authenticateToken('t1'), { name: 'alice', uid: 'uid-1', groups: ['dev', 'ops'] });
    assert.deepEqual(tokens.authenticateToken('t2'), { name: 'bob', uid: 'uid-2', groups: [] });
    assert.deepEqual(tokens.authenticateToken('t3'), { name: 'carol', groups: [] }, 'an empty uid is no uid');
    assert.equal(tokens.authenticateToken('t4'), undefined);
    assert.equal(tokens.authenticateToken('T1'), undefined, 'tokens are compared exactly');
    assert.deepEqual(warnings, []);
  });

  it('skips an empty token and lets a repeated one take the later record, warning of both', async () => {
    const warnings: string[] = [];
    const path = file(',nobody,0\nt1,first,1\nt1,second,2\n');
    const tokens = await readTokenFile(path, (m) => warnings.push(m));
    assert.equal(tokens.authenticateToken('')?.name, undefined);
    assert.equal(tokens.authenticateToken('t1')?.name, 'second');
    assert.deepEqual(warnings, [
      `empty token has been found in token file '${path}', record number '1'`,
      `duplicate token has been found in token file '${path}', record number '3'`,
    ]);
  });

  it('refuses a record of fewer than three columns, and broken quoting, naming the file', async () => {
    const short = file('t1,alice,1\nt2,bob\n');
    await assert.rejects(readTokenFile(short, () => {}), { message: `token file '${short}' must have at least 3 columns (token, user name, user uid), found 2` });
    const broken = file('t1,"alice,1\n');
    await assert.rejects(readTokenFile(broken, () => {}), (err: Error) => err.message.startsWith(`token file '${broken}': `));
    await assert.rejects(readTokenFile(join(dir, 'missing.csv'), () => {}), { code: 'ENOENT' });
  });
});
