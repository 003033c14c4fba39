/**
 * The patch kinds the server accepts, by Content-Type.
 */
import type { PatcherTable } from '../endpoints/handlers/patch.js';

export function patchers(): PatcherTable {
  return new Map();
}
