/** Flags naming files that must exist when the server starts. */
import { existsSync } from 'node:fs';

/** `<flag> <path>: no such file` for every given path that does not exist. */
export function missingFiles(files: Record<string, string | undefined>): string[] {
  return Object.entries(files)
    .filter(([, path]) => path !== undefined && !existsSync(path))
    .map(([flag, path]) => `${flag} ${path}: no such file`);
}
