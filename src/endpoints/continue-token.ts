/**
 * Continue tokens for paged lists, in upstream's format (clients treat them as opaque, but tools
 * that inspect them expect this): unpadded base64url of `{"v":"meta.k8s.io/v1","rv":N,"start":K}`,
 * where K is the next key relative to the list's key prefix.
 */
import { ApiError, badRequest } from '../api/errors.js';

export interface ContinuePosition {
  /**
   * The revision every page of the list is served at; LATEST for a token handed out when that
   * revision was compacted away (the rest of the list is then read at the latest revision).
   */
  readonly revision: number;
  /** The key to resume from, relative to the list's prefix. */
  readonly start: string;
}

const TOKEN_VERSION = 'meta.k8s.io/v1';

/** The token revision meaning "the latest", as upstream encodes it (-1: 0 is a bad token). */
export const LATEST = -1;

export function encodeContinue(position: ContinuePosition): string {
  const json = JSON.stringify({ v: TOKEN_VERSION, rv: position.revision, start: position.start });
  return Buffer.from(json, 'utf8').toString('base64url');
}

function invalidToken(why: string): ApiError {
  return badRequest(`continue key is not valid: ${why}`);
}

/** Decodes and validates a token; a token that was tampered with gives 400 BadRequest. */
export function decodeContinue(token: string): ContinuePosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalidToken('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalidToken('not an object');
  const { v, rv, start } = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (v !== TOKEN_VERSION) throw invalidToken('server does not recognize this encoded key');
  if (typeof rv !== 'number' || !Number.isSafeInteger(rv) || (rv <= 0 && rv !== LATEST)) {
    throw invalidToken('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  // The start key must stay inside the list's prefix: no absolute keys, no climbing out.
  if (typeof start !== 'string' || start.startsWith('/') || start.split('/').includes('..')) {
    throw invalidToken('encoded key is not valid');
  }
  return { revision: rv, start };
}
