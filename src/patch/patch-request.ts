/**
 * What every patch kind receives and returns. Each kind is a {@link PatchApplier}; the endpoint
 * picks one by the PATCH's Content-Type (see patchers.ts), so strategic merge patch and server-side
 * apply slot in later without the handler changing.
 */

/** The fieldValidation query parameter: how unknown and duplicate fields are treated. */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface PatchRequest {
  /** The object as stored. Appliers do not modify it. */
  readonly current: Readonly<Record<string, unknown>>;
  /** The PATCH body as received. */
  readonly body: Uint8Array;
  readonly fieldValidation: FieldValidation;
}

export interface PatchResult {
  /**
   * The patched document: a new value sharing nothing mutable with `current`. Usually an object; a
   * patch may replace the whole document with something else, which the caller's decoding rejects.
   */
  readonly value: unknown;
  /**
   * Strict-decoding messages about the patch body itself (`json patch unknown field "[0].foo"`,
   * `duplicate field "a"`), for the caller to warn about or reject with the object's own.
   */
  readonly strictErrors: readonly string[];
}

/** Applies one kind of patch. Throws ApiError (400, 413, 422) for patches that cannot apply. */
export type PatchApplier = (request: PatchRequest) => PatchResult;
