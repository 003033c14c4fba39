/**
 * The values the crash test writes: each is a deterministic function of its key and version, with
 * a size that varies from a hundred bytes to several pages, so that a value cut short or mixed
 * with another is recognised.
 */
import { createHash } from 'node:crypto';

/** The value written for `key` at `version` (0: the create, 1: the update). */
export function crashValue(key: string, version: number): Uint8Array {
  const digest = createHash('sha256').update(`${key}#${version}`).digest();
  const length = 100 + (digest.readUInt32BE(0) % 12_000);
  const header = Buffer.from(`${key}#${version}#${length}#`);
  const body = Buffer.alloc(length);
  for (let i = 0; i < length; i++) body[i] = digest[i % digest.length]!;
  return Buffer.concat([header, body]);
}

/** The version a stored value claims, if the value is exactly what crashValue wrote for it. */
export function verifyCrashValue(key: string, value: Uint8Array): number | undefined {
  const text = Buffer.from(value.buffer, value.byteOffset, Math.min(value.byteLength, key.length + 32)).toString('latin1');
  const match = /^(.*?)#(\d+)#/.exec(text);
  if (match === null || match[1] !== key) return undefined;
  const version = Number(match[2]);
  return Buffer.from(crashValue(key, version)).equals(Buffer.from(value)) ? version : undefined;
}
