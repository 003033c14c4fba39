/**
 * Reads the captured upstream HTTP responses (golden-1.32/http/*.txt, see reference-files.ts): a curl
 * command line, the status line and headers, a blank line, then the JSON body.
 */
import { readFileSync } from 'node:fs';
import { referenceDir } from '../../reference-files.js';

export const goldenDir = `${referenceDir}golden-1.32`;

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
