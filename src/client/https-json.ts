/** GETs of JSON documents over HTTPS (an OIDC issuer's discovery document and keys). */
import { request } from 'node:https';

const TIMEOUT_MS = 10_000;
/** Discovery documents and key sets are small; a larger answer is refused rather than buffered. */
const MAX_BYTES = 1024 * 1024;

/** A fetcher trusting `caPem` (none: Node's default CAs). Rejects on a non-2xx answer, a timeout or bad JSON. */
export function httpsJsonFetcher(caPem?: string): (url: string) => Promise<unknown> {
  return (url) =>
    new Promise((resolve, reject) => {
      const req = request(url, { method: 'GET', headers: { Accept: 'application/json' }, timeout: TIMEOUT_MS, ...(caPem ? { ca: caPem } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) req.destroy(new Error(`${url}: answer larger than ${MAX_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) return reject(new Error(`${url}: ${res.statusCode} ${text.slice(0, 200)}`));
          try {
            resolve(JSON.parse(text) as unknown);
          } catch (err) {
            reject(new Error(`${url}: ${(err as Error).message}`));
          }
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${url}: timed out`)));
      req.on('error', reject);
      req.end();
    });
}
