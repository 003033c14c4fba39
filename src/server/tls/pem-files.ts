/** Reading and writing the PEM files of the certificate directory. */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Reads a file, or undefined when it does not exist. */
export async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Writes a file atomically (temporary file, then rename), so a crash never leaves half a key.
 * `secret` files (keys, kubeconfigs with keys) are readable by their owner only.
 */
export async function writeAtomic(path: string, content: string, secret: boolean): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, content, { mode: secret ? 0o600 : 0o644 });
  await rename(tmp, path);
}

/** The certificates in a PEM bundle, in order. Throws if one cannot be parsed. */
export function parseCertificates(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new X509Certificate(block));
}

/** True if the certificate is valid now and for at least `marginMs` more. */
export function isValidFor(cert: X509Certificate, marginMs: number, now = Date.now()): boolean {
  return new Date(cert.validFrom).getTime() <= now && new Date(cert.validTo).getTime() > now + marginMs;
}
