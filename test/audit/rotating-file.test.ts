/**
 * The audit log's file, kept as kube-apiserver keeps it with lumberjack: created private at start,
 * appended to across restarts, moved aside to a time-stamped backup at the size limit, a write
 * past the limit refused, and backups removed by count and age or gzipped after a rotation.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { RotatingFile, type RotationOptions } from '../../src/audit/rotating-file.js';

const root = mkdtempSync(join(tmpdir(), 'capstan-rotate-'));
let n = 0;
const MB = 1024 * 1024;
const oneMegabyte: RotationOptions = { maxSizeMegabytes: 1, maxBackups: 0, maxAgeDays: 0, compress: false };

function freshDir(): string {
  return join(root, `d${n++}`);
}

/** A clock the test moves by hand, so that backup names are known in advance. */
function clock(start: string) {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

/** `count` bytes ending in a newline, like a batch of audit lines. */
function lines(count: number, fill = 'x'): string {
  return `${fill.repeat(count - 1)}\n`;
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe('RotatingFile', () => {
  after(() => rmSync(root, { recursive: true, force: true }));

  it('creates its directory (0700) and file (0600) at start, as ensureLogFile does, and appends across restarts', async () => {
    const dir = join(freshDir(), 'nested');
    const path = join(dir, 'audit.log');
    const first = new RotatingFile(path, oneMegabyte);
    assert.equal(mode(dir), 0o700);
    assert.equal(mode(path), 0o600);
    assert.equal(readFileSync(path, 'utf8'), '', 'created before any write');
    first.write('one\n');
    await first.close();
    const second = new RotatingFile(path, oneMegabyte);
    second.write(Buffer.from('two\n'));
    await second.close();
    assert.equal(readFileSync(path, 'utf8'), 'one\ntwo\n');
    await second.close();
    assert.throws(() => second.write('late\n'), { message: `${path} is closed` });
  });

  it('says ensureLogFile when the path cannot be created', () => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'plain'), '');
    assert.throws(() => new RotatingFile(join(dir, 'plain', 'audit.log'), oneMegabyte), (err: NodeJS.ErrnoException) => {
      // Node says EEXIST where Go says ENOTDIR; the prefix and a system code are what matter.
      assert.match(err.message, /^ensureLogFile: E[A-Z]+: /);
      assert.match(String(err.code), /^E[A-Z]+$/);
      return true;
    });
  });

  const names = [
    { name: 'with an extension', file: 'audit.log', backup: 'audit-2026-11-28T08-09-10.123.log' },
    { name: 'without one', file: 'audit', backup: 'audit-2026-11-28T08-09-10.123' },
    { name: 'with two dots', file: 'kube.audit.json', backup: 'kube.audit-2026-11-28T08-09-10.123.json' },
  ];
  for (const { name, file, backup } of names) {
    it(`moves the file aside before a write that would pass the limit, ${name}`, async () => {
      const dir = freshDir();
      const path = join(dir, file);
      const c = clock('2026-11-28T08:09:10.123Z');
      const out = new RotatingFile(path, oneMegabyte, c.now);
      for (let i = 0; i < 1024; i++) out.write(lines(1024));
      assert.deepEqual(readdirSync(dir), [file], 'filled exactly: no rotation yet');
      chmodSync(path, 0o640);
      out.write('next\n');
      await out.close();
      assert.deepEqual(readdirSync(dir).sort(), [backup, file].sort());
      assert.equal(readFileSync(path, 'utf8'), 'next\n');
      assert.equal(statSync(join(dir, backup)).size, MB);
      assert.equal(mode(path), 0o640, 'the new file takes the old one\'s mode');
    });
  }

  it('at the first write, rotates an existing file that the write would fill exactly, as lumberjack does on opening', async () => {
    const dir = freshDir();
    mkdirSync(dir);
    const path = join(dir, 'audit.log');
    writeFileSync(path, lines(MB - 10));
    const out = new RotatingFile(path, oneMegabyte, clock('2026-11-28T00:00:00.000Z').now);
    out.write(lines(10));
    await out.close();
    assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-11-28T00-00-00.000.log', 'audit.log']);
    assert.equal(statSync(path).size, 10);
  });

  it('refuses one write larger than the limit in lumberjack\'s words, writing nothing', async () => {
    const path = join(freshDir(), 'audit.log');
    const out = new RotatingFile(path, oneMegabyte);
    assert.throws(() => out.write('y'.repeat(MB + 1)), { message: `write length ${MB + 1} exceeds maximum file size ${MB}` });
    await out.close();
    assert.equal(statSync(path).size, 0);
  });

  it('rotates at 100 MB when no size is given, as lumberjack does', async () => {
    const dir = freshDir();
    const out = new RotatingFile(join(dir, 'a.log'), { ...oneMegabyte, maxSizeMegabytes: 0 });
    out.write(lines(2 * MB));
    assert.throws(() => out.write(Buffer.alloc(100 * MB + 1)), { message: `write length ${100 * MB + 1} exceeds maximum file size ${100 * MB}` });
    await out.close();
    assert.deepEqual(readdirSync(dir), ['a.log']);
  });

  it('keeps the newest --audit-log-maxbackup backups by the time in their names', async () => {
    const dir = freshDir();
    const path = join(dir, 'audit.log');
    const c = clock('2026-11-28T10:00:00.000Z');
    const out = new RotatingFile(path, { ...oneMegabyte, maxBackups: 2 }, c.now);
    for (let i = 0; i < 4; i++) {
      out.write(lines(MB, String(i)));
      c.advance(1000);
    }
    await out.settled();
    assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-11-28T10-00-02.000.log', 'audit-2026-11-28T10-00-03.000.log', 'audit.log']);
    assert.equal(readFileSync(join(dir, 'audit-2026-11-28T10-00-03.000.log'), 'utf8')[0], '2');
    assert.equal(readFileSync(path, 'utf8')[0], '3');
    await out.close();
  });

  it('cleans up at the first write too, and leaves alone what is not a backup of this file', async () => {
    const dir = freshDir();
    mkdirSync(dir);
    const strangers = ['other.log', 'audit-old.log', 'audit-2026-02-30T00-00-00.000.log', 'audit-2026-11-01T00-00-00.00.log', 'audit.log.1'];
    for (const name of [...strangers, 'audit-2026-11-01T00-00-00.000.log', 'audit-2026-11-02T00-00-00.000.log.gz']) writeFileSync(join(dir, name), 'old\n');
    mkdirSync(join(dir, 'audit-2026-10-01T00-00-00.000.log'));
    const out = new RotatingFile(join(dir, 'audit.log'), { ...oneMegabyte, maxBackups: 1 });
    out.write('first\n');
    await out.settled();
    const expected = [...strangers, 'audit-2026-10-01T00-00-00.000.log', 'audit-2026-11-02T00-00-00.000.log.gz', 'audit.log'];
    assert.deepEqual(readdirSync(dir).sort(), expected.sort());
    await out.close();
  });

  it('removes backups older than --audit-log-maxage days, whatever their count', async () => {
    const dir = freshDir();
    mkdirSync(dir);
    for (const name of ['audit-2026-11-12T23-59-59.999.log', 'audit-2026-11-13T00-00-00.000.log.gz', 'audit-2026-11-19T00-00-00.000.log']) writeFileSync(join(dir, name), 'old\n');
    const c = clock('2026-11-20T00:00:00.000Z');
    const out = new RotatingFile(join(dir, 'audit.log'), { ...oneMegabyte, maxAgeDays: 7 }, c.now);
    out.write(lines(MB));
    out.write('after\n');
    await out.settled();
    const left = ['audit-2026-11-13T00-00-00.000.log.gz', 'audit-2026-11-19T00-00-00.000.log', 'audit-2026-11-20T00-00-00.000.log', 'audit.log'];
    assert.deepEqual(readdirSync(dir).sort(), left, 'exactly seven days old is kept');
    await out.close();
  });

  it('gzips backups with --audit-log-compress, keeping their mode, and removes the plain ones', async () => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'audit-2026-11-19T12-00-00.000.log'), 'earlier run\n');
    const path = join(dir, 'audit.log');
    const out = new RotatingFile(path, { ...oneMegabyte, compress: true }, clock('2026-11-20T00:00:00.000Z').now);
    const content = Array.from({ length: 8192 }, (_, i) => `{"auditID":"${i}"}`).join('\n').padEnd(MB - 1, ' ') + '\n';
    out.write(content);
    out.write('after\n');
    await out.close();
    assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-11-19T12-00-00.000.log.gz', 'audit-2026-11-20T00-00-00.000.log.gz', 'audit.log']);
    const gz = join(dir, 'audit-2026-11-20T00-00-00.000.log.gz');
    assert.equal(gunzipSync(readFileSync(gz)).toString(), content);
    assert.ok(statSync(gz).size < MB / 4, 'compressed');
    assert.equal(mode(gz), 0o600);
    assert.equal(gunzipSync(readFileSync(join(dir, 'audit-2026-11-19T12-00-00.000.log.gz'))).toString(), 'earlier run\n');
  });

  it('starts a new file when the current one was removed from outside, as lumberjack does', async () => {
    const dir = freshDir();
    const path = join(dir, 'audit.log');
    const out = new RotatingFile(path, oneMegabyte);
    out.write(lines(MB - 1));
    rmSync(dir, { recursive: true });
    out.write('after\n');
    await out.close();
    assert.deepEqual(readdirSync(dir), ['audit.log']);
    assert.equal(readFileSync(path, 'utf8'), 'after\n');
    assert.equal(mode(path), 0o600);
  });
});
