/**
 * The audit log's file (--audit-log-path other than "-"; standard output is the caller's), kept
 * as upstream keeps it: kube-apiserver creates the directory (0700) and the file (0600) at start,
 * then writes through lumberjack, whose rules this class follows:
 * - the file is opened at the first write, appended to unless that write would bring it to the
 *   limit or past it; later, a write that would pass the limit first moves the file aside to
 *   `<name>-<UTC time as 2006-01-02T15-04-05.000><.ext>` and starts a new one with its mode;
 *   one write larger than the limit is refused; a limit of 0 means lumberjack's 100 MB;
 * - at the first write and after each rotation, a clean-up removes the backups beyond
 *   --audit-log-maxbackup (the newest kept) and those older than --audit-log-maxage days (both by
 *   the time in their names), then gzips the rest with --audit-log-compress. It runs off the write
 *   path and its failures are dropped, as lumberjack's are; {@link RotatingFile.settled} waits for it.
 * Writes are synchronous, one system call each: the blocking modes write an event before the
 * request goes on, and batch mode hands over many lines at once.
 *
 * Worked example, limit 1 MB, clock at 2026-11-28T08:09:10.123Z: audit.log holds 1 MB - 10 bytes;
 * a write of 20 bytes closes it, renames it audit-2026-11-28T08-09-10.123.log, opens a new empty
 * audit.log and writes the 20 bytes there.
 */
import { type Stats, closeSync, constants, createReadStream, createWriteStream, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { readdir, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { TextOutput } from './event-writer.js';

export interface RotationOptions {
  /** --audit-log-maxsize; 0: lumberjack's default of 100. */
  readonly maxSizeMegabytes: number;
  /** --audit-log-maxbackup; 0: keep every backup (--audit-log-maxage may still remove some). */
  readonly maxBackups: number;
  /** --audit-log-maxage; 0: no age limit. */
  readonly maxAgeDays: number;
  /** --audit-log-compress. */
  readonly compress: boolean;
}

const MEGABYTE = 1024 * 1024;
const DEFAULT_MAX_SIZE_MEGABYTES = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
const GZIP_SUFFIX = '.gz';

interface Backup {
  readonly name: string;
  /** The rotation time in the name, in ms since the epoch. */
  readonly time: number;
}

export class RotatingFile implements TextOutput {
  private readonly maxBytes: number;
  /** Undefined before the first write, and after a rotation that failed (the next write retries). */
  private fd: number | undefined;
  /** Bytes in the open file, counted here rather than asked of the file system at each write. */
  private size = 0;
  private closed = false;
  private milling: Promise<void> = Promise.resolve();
  /** A clean-up is queued and not begun: it will see every backup made until then, so one is enough. */
  private millQueued = false;

  /** Creates the directory and the file as kube-apiserver does; throws `ensureLogFile: ...` if it cannot. */
  constructor(
    private readonly path: string,
    private readonly rotation: RotationOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.maxBytes = (rotation.maxSizeMegabytes > 0 ? rotation.maxSizeMegabytes : DEFAULT_MAX_SIZE_MEGABYTES) * MEGABYTE;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      closeSync(openSync(path, constants.O_CREAT | constants.O_APPEND | constants.O_RDWR, 0o600));
    } catch (err) {
      throw failure('ensureLogFile: ', err);
    }
  }

  /**
   * Appends `text` in one write, rotating first if it would not fit. Throws when closed, when
   * `text` is larger than the limit (lumberjack's words), or when the file system refuses.
   */
  write(text: string | Uint8Array): void {
    if (this.closed) throw new Error(`${this.path} is closed`);
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    if (bytes.length > this.maxBytes) throw new Error(`write length ${bytes.length} exceeds maximum file size ${this.maxBytes}`);
    if (this.fd === undefined) this.openExistingOrNew(bytes.length);
    if (this.size + bytes.length > this.maxBytes) this.rotate();
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(this.fd!, bytes, written);
    } catch (err) {
      throw failure(`write ${this.path}: `, err);
    } finally {
      this.size += written;
    }
  }

  /** Closes the file (a later write throws) and waits for the clean-up under way. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    this.closeFile();
    await this.settled();
  }

  /** Resolves when the clean-up requested so far has finished; never rejects. */
  settled(): Promise<void> {
    return this.milling;
  }

  private openExistingOrNew(writeLength: number): void {
    this.requestMill();
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return this.openNew();
      throw failure('error getting log file info: ', err);
    }
    // At open lumberjack also rotates a file the write would fill exactly; later only one it would pass.
    if (size + writeLength >= this.maxBytes) return this.rotate();
    try {
      this.fd = openSync(this.path, constants.O_APPEND | constants.O_WRONLY);
    } catch {
      // As lumberjack: a file that cannot be reopened is moved aside rather than failing the write.
      return this.openNew();
    }
    this.size = size;
  }

  private rotate(): void {
    this.closeFile();
    this.openNew();
    this.requestMill();
  }

  /** Moves the current file (if any) aside and opens an empty one with its mode. */
  private openNew(): void {
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    } catch (err) {
      throw failure("can't make directories for new logfile: ", err);
    }
    // Lumberjack falls back to 0644 when the file is gone; an audit log stays private here.
    let mode = 0o600;
    let existing: Stats | undefined;
    try {
      existing = statSync(this.path);
    } catch {
      // As lumberjack: whatever stops the look, there is no file to move aside.
    }
    if (existing) {
      mode = existing.mode & 0o777;
      try {
        renameSync(this.path, join(dirname(this.path), backupName(this.path, this.now())));
      } catch (err) {
        throw failure("can't rename log file: ", err);
      }
    }
    try {
      this.fd = openSync(this.path, constants.O_CREAT | constants.O_WRONLY | constants.O_TRUNC, mode);
    } catch (err) {
      throw failure("can't open new logfile: ", err);
    }
    this.size = 0;
  }

  private closeFile(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  private requestMill(): void {
    if (this.millQueued) return;
    this.millQueued = true;
    this.milling = this.milling
      .then(() => {
        this.millQueued = false;
        return this.mill();
      })
      .catch(() => undefined);
  }

  /** Lumberjack's millRunOnce: count, then age, then compression; each file's failure skipped. */
  private async mill(): Promise<void> {
    const { maxBackups, maxAgeDays, compress } = this.rotation;
    if (maxBackups === 0 && maxAgeDays === 0 && !compress) return;
    const dir = dirname(this.path);
    let kept = await listBackups(this.path);
    const doomed: Backup[] = [];
    if (maxBackups > 0) kept = keepNewest(kept, maxBackups, doomed);
    if (maxAgeDays > 0) {
      const cutoff = this.now().getTime() - maxAgeDays * DAY_MS;
      doomed.push(...kept.filter((b) => b.time < cutoff));
      kept = kept.filter((b) => b.time >= cutoff);
    }
    for (const b of doomed) await unlink(join(dir, b.name)).catch(() => undefined);
    if (!compress) return;
    for (const b of kept) {
      if (!b.name.endsWith(GZIP_SUFFIX)) await gzipFile(join(dir, b.name)).catch(() => undefined);
    }
  }
}

/** `dir/audit.log` rotated at `at` → `audit-2026-11-28T08-09-10.123.log`. */
function backupName(path: string, at: Date): string {
  const ext = extname(path);
  return `${basename(path, ext)}-${formatStamp(at)}${ext}`;
}

/** Go's `2006-01-02T15-04-05.000` in UTC. */
function formatStamp(at: Date): string {
  return at.toISOString().slice(0, -1).replace(/:/g, '-');
}

/** The time in a stamp, or undefined unless Go would parse it (digit counts, real dates). */
function parseStamp(stamp: string): number | undefined {
  const m = /^(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d\.\d{3})$/.exec(stamp);
  if (!m) return undefined;
  const time = Date.parse(`${m[1]}:${m[2]}:${m[3]}Z`);
  // Date.parse takes 2026-02-30 as March 2nd; Go refuses it, and so does the round trip.
  return Number.isFinite(time) && formatStamp(new Date(time)) === stamp ? time : undefined;
}

/** The backups beside `path` (plain or gzipped), newest first; other files are not ours. */
async function listBackups(path: string): Promise<Backup[]> {
  const ext = extname(path);
  const prefix = `${basename(path, ext)}-`;
  const found: Backup[] = [];
  for (const entry of await readdir(dirname(path), { withFileTypes: true })) {
    const name = entry.name;
    if (entry.isDirectory() || !name.startsWith(prefix)) continue;
    const stampOf = (suffix: string) => (name.endsWith(suffix) ? parseStamp(name.slice(prefix.length, name.length - suffix.length)) : undefined);
    const time = stampOf(ext) ?? stampOf(`${ext}${GZIP_SUFFIX}`);
    if (time !== undefined) found.push({ name, time });
  }
  return found.sort((a, b) => b.time - a.time);
}

/**
 * The first `max` backups of a newest-first list, the rest pushed onto `doomed`. A backup and its
 * gzipped copy (left by a compression cut short) count as one, as lumberjack counts them.
 */
function keepNewest(backups: readonly Backup[], max: number, doomed: Backup[]): Backup[] {
  const seen = new Set<string>();
  return backups.filter((b) => {
    seen.add(b.name.endsWith(GZIP_SUFFIX) ? b.name.slice(0, -GZIP_SUFFIX.length) : b.name);
    if (seen.size <= max) return true;
    doomed.push(b);
    return false;
  });
}

/** Replaces `from` with `from.gz` of the same mode; a partial `.gz` is removed on failure. */
async function gzipFile(from: string): Promise<void> {
  const to = `${from}${GZIP_SUFFIX}`;
  const { mode } = await stat(from);
  try {
    // Streamed: a backup is up to the size limit (100 MB by default), too much to hold at once.
    await pipeline(createReadStream(from), createGzip(), createWriteStream(to, { mode: mode & 0o777 }));
  } catch (err) {
    await rm(to, { force: true });
    throw err;
  }
  await unlink(from);
}

/** An Error worded as lumberjack's (prefix + cause), keeping the system error's code. */
function failure(prefix: string, err: unknown): Error {
  const cause = err as NodeJS.ErrnoException;
  return Object.assign(new Error(`${prefix}${cause.message}`, { cause }), { code: cause.code });
}
