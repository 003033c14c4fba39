/**
 * Reads the captured upstream HTTP responses (shared/reference/golden-1.32/http/*.txt): a curl
 * command line, the status line and headers, a blank line, then the JSON body.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Compiled tests run from dist/test/endpoints/<dir>/, five levels below the directory holding shared/.
export const goldenDir = process.env.CAPSTAN_REFERENCE_DIR
  ? `${process.env.CAPSTAN_REFERENCE_DIR}/golden-1.32`
  : fileURLToPath(new URL('../../../../../shared/reference/golden-1.32', import.meta.url));

/** A `skip` value for node:test: false when the reference files are present. */
export const skipWithoutGolden: string | false = existsSync(goldenDir) ? false : `reference documents not found at ${goldenDir}`;

/** The parsed JSON body of one captured response. */
export function goldenBody(name: string): Record<string, unknown> {
  const raw = readFileSync(`${goldenDir}/http/${name}`, 'utf8').replace(/\r\n/g, '\n');
  return JSON.parse(raw.slice(raw.indexOf('\n\n') + 2)) as Record<string, unknown>;
}

/** The value of one response header of a captured response. */
export function goldenHeader(name: string, header: string): string | undefined {
  const raw = readFileSync(`${goldenDir}/http/${name}`, 'utf8').replace(/\r\n/g, '\n');
  const head = raw.slice(0, raw.indexOf('\n\n')).split('\n');
  const line = head.find((l) => l.toLowerCase().startsWith(`${header.toLowerCase()}:`));
  return line?.slice(header.length + 1).trim();
}

/** A captured object (golden-1.32/object-*.json). */
export function goldenObject(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${goldenDir}/${name}`, 'utf8')) as Record<string, unknown>;
}
