/**
 * The audit log's file, rotated as upstream's: appended to across restarts, moved aside to a
 * time-stamped backup at the size limit, a write past the limit refused, and backups removed by
 * count and age or gzipped after a rotation.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { RotatingFile, type RotationOptions } from '../../src/audit/rotating-file.js';

const root = mkdtempSync(join(tmpdir(), 'capstan-rotate-'));
let n = 0;
const MB = 1024 * 1024;
const noLimits: RotationOptions = { maxSizeMegabytes: 1, maxBackups: 0, maxAgeDays: 0, compress: false };

function clock(start: string) {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

describe('RotatingFile', () => {
  after(() => rmSync(root, { recursive: true, force: true }));

  it('creates its directory and a file only its owner reads, appends to an existing one, and closes once', async () => {
    const dir = join(root, `d${n++}`, 'nested');
    const path = join(dir, 'audit.log');
    const first = new RotatingFile(path, noLimits);
    first.write('one\n');
    await first.close();
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const second = new RotatingFile(path, noLimits);
    second.write('two\n');
    await second.close();
    assert.equal(readFileSync(path, 'utf8'), 'one\ntwo\n');
    await second.close();
    assert.throws(() => second.write('late\n'), { message: `${path} is closed` });
  });

  it('moves the file aside to a time-stamped backup before a write that would pass the limit', async () => {
    const dir = join(root, `d${n++}`);
    const path = join(dir, 'audit.log');
    const c = clock('2026-11-28T08:09:10.123Z');
    const file = new RotatingFile(path, noLimits, c.now);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 1024; i++) file.write(line);
    assert.deepEqual(readdirSync(dir), ['audit.log'], 'exactly at the limit: no rotation yet');
    file.write('next\n');
    await file.close();
    assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-11-28T08-09-10.123.log', 'audit.log']);
    assert.equal(readFileSync(path, 'utf8'), 'next\n');
    assert.equal(statSync(join(dir, 'audit-2026-11-28T08-09-10.123.log')).size, MB);
  });

  it('refuses one write larger than the limit, as lumberjack words it', async () => {
    const file = new RotatingFile(join(root, `d${n++}`, 'a.log'), noLimits);
    assert.throws(() => file.write('y'.repeat(MB + 1)), { message: `write length ${MB + 1} exceeds maximum file size ${MB}` });
    await file.close();
  });

  it('keeps the newest backups by count, drops old ones by age, and gzips the rest', async () => {
    const dir = join(root, `d${n++}`);
    const path = join(dir, 'audit.log');
    const c = clock('2026-11-20T00:00:00.000Z');
    // Backups from earlier runs: one 8 days old, two recent; a file of another name is left alone.
    mkdirSync(dir);
    for (const name of ['audit-2026-11-12T00-00-00.000.log', 'audit-2026-11-19T00-00-00.000.log', 'audit-2026-11-19T12-00-00.000.log', 'other.log']) {
      writeFileSync(join(dir, name), 'old\n');
    }
    const file = new RotatingFile(path, { maxSizeMegabytes: 1, maxBackups: 2, maxAgeDays: 7, compress: true }, c.now);
    file.write(`${'z'.repeat(MB - 1)}\n`);
    file.write('after\n');
    await file.settled();
    const names = readdirSync(dir).sort();
    assert.deepEqual(names, ['audit-2026-11-19T12-00-00.000.log.gz', 'audit-2026-11-20T00-00-00.000.log.gz', 'audit.log', 'other.log']);
    assert.equal(gunzipSync(readFileSync(join(dir, 'audit-2026-11-19T12-00-00.000.log.gz'))).toString(), 'old\n');
    assert.equal(gunzipSync(readFileSync(join(dir, 'audit-2026-11-20T00-00-00.000.log.gz'))).length, MB);
    assert.ok(!existsSync(join(dir, 'audit-2026-11-20T00-00-00.000.log')));
    await file.close();
  });

  it('rotates at 100 MB when no size is given, as lumberjack does', async () => {
    const dir = join(root, `d${n++}`);
    const file = new RotatingFile(join(dir, 'a.log'), { ...noLimits, maxSizeMegabytes: 0 });
    file.write('z'.repeat(2 * MB));
    await file.close();
    assert.deepEqual(readdirSync(dir), ['a.log']);
  });
});
