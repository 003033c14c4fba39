/**
 * The audit log's file, rotated as upstream's (which uses the lumberjack package):
 * - a write that would take the file past the size limit first moves it aside to
 *   `<name>-<UTC time as 2006-01-02T15-04-05.000><.ext>` and starts a new one; a limit of 0 means
 *   lumberjack's default, 100 MB; one write larger than the limit is refused;
 * - after a rotation, backups beyond --audit-log-maxbackup (newest kept) or older than
 *   --audit-log-maxage days (by the time in their names) are removed, and the rest gzipped with
 *   --audit-log-compress. This clean-up runs off the write path; {@link settled} waits for it.
 * Writes are synchronous, one system call each: the blocking modes write an event before the
 * request goes on, and batch mode hands over many lines at once.
 */
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { TextOutput } from './event-writer.js';

export interface RotationOptions {
  /** 0: lumberjack's default of 100. */
  readonly maxSizeMegabytes: number;
  /** 0: keep every backup. */
  readonly maxBackups: number;
  /** 0: no age limit. */
  readonly maxAgeDays: number;
  readonly compress: boolean;
}

const MEGABYTE = 1024 * 1024;
const DEFAULT_MAX_SIZE_MEGABYTES = 100;
const DAY_MS = 86_400_000;
const gzipAsync = promisify(gzip);

export class RotatingFile implements TextOutput {
  private fd: number;
  private size: number;
  private readonly maxBytes: number;
  private cleanup: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly rotation: RotationOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.maxBytes = (rotation.maxSizeMegabytes > 0 ? rotation.maxSizeMegabytes : DEFAULT_MAX_SIZE_MEGABYTES) * MEGABYTE;
    mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
    // Opened now rather than at the first event, so that a path that cannot be written fails the start.
    this.fd = openSync(path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  write(text: string): void {
    if (this.fd < 0) throw new Error(`${this.path} is closed`);
    const bytes = Buffer.from(text);
    if (bytes.length > this.maxBytes) throw new Error(`write length ${bytes.length} exceeds maximum file size ${this.maxBytes}`);
    if (this.size + bytes.length > this.maxBytes) this.rotate();
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written);
    this.size += bytes.length;
  }

  async close(): Promise<void> {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    await this.settled();
  }

  /** Resolves when the clean-up after the last rotation has finished. */
  settled(): Promise<void> {
    return this.cleanup;
  }

  private rotate(): void {
    const mode = fstatSync(this.fd).mode & 0o777;
    closeSync(this.fd);
    renameSync(this.path, this.backupPath(this.now()));
    this.fd = openSync(this.path, 'a', mode);
    this.size = 0;
    this.cleanup = this.cleanup.then(() => this.removeAndCompress()).catch(() => undefined);
  }

  private backupPath(at: Date): string {
    const ext = extname(this.path);
    const prefix = basename(this.path, ext);
    const stamp = at.toISOString().replace(/Z$/, '').replace(/:/g, '-');
    return join(dirname(this.path), `${prefix}-${stamp}${ext}`);
  }

  /** The backups in the directory, newest first, by the time in their names. */
  private async backups(): Promise<Array<{ name: string; time: number }>> {
    const ext = extname(this.path);
    const prefix = `${basename(this.path, ext)}-`;
    const found: Array<{ name: string; time: number }> = [];
    for (const name of await readdir(dirname(this.path))) {
      if (!name.startsWith(prefix)) continue;
      const rest = name.slice(prefix.length);
      const stamp = rest.endsWith(`${ext}.gz`) ? rest.slice(0, -(ext.length + 3)) : rest.endsWith(ext) ? rest.slice(0, rest.length - ext.length) : undefined;
      const match = stamp === undefined ? null : /^(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d\.\d{3})$/.exec(stamp);
      if (match) found.push({ name, time: Date.parse(`${match[1]}:${match[2]}:${match[3]}Z`) });
    }
    return found.sort((a, b) => b.time - a.time);
  }

  private async removeAndCompress(): Promise<void> {
    const dir = dirname(this.path);
    let files = await this.backups();
    const { maxBackups, maxAgeDays, compress } = this.rotation;
    const doomed: string[] = [];
    if (maxBackups > 0) {
      // A backup and its compressed copy (mid-compression) count once.
      const kept = new Set<string>();
      files = files.filter((f) => {
        const key = f.name.replace(/\.gz$/, '');
        if (kept.has(key) || kept.size < maxBackups) return kept.add(key), true;
        doomed.push(f.name);
        return false;
      });
    }
    if (maxAgeDays > 0) {
      const cutoff = this.now().getTime() - maxAgeDays * DAY_MS;
      files = files.filter((f) => (f.time < cutoff ? (doomed.push(f.name), false) : true));
    }
    for (const name of doomed) await rm(join(dir, name), { force: true });
    if (!compress) return;
    for (const f of files) {
      if (f.name.endsWith('.gz')) continue;
      const from = join(dir, f.name);
      const mode = (await stat(from)).mode & 0o777;
      await writeFile(`${from}.gz`, await gzipAsync(await readFile(from)), { mode });
      await rm(from);
    }
  }
}

