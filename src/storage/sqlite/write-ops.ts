/**
 * The writes a batch carries and what each one came to. Plain data only: these cross the
 * boundary to the writer thread through structured clone.
 */

export type WriteOp =
  | { readonly kind: 'create'; readonly key: string; readonly value: Uint8Array }
  | { readonly kind: 'update'; readonly key: string; readonly value: Uint8Array; readonly expectedModRevision: number }
  | { readonly kind: 'delete'; readonly key: string; readonly expectedModRevision: number | undefined };

/** A key's live value as the writer found it before the write. */
export interface PriorValue {
  readonly value: Uint8Array;
  readonly createRevision: number;
  readonly modRevision: number;
}

/** A write that was applied at `revision`. */
export interface AppliedWrite {
  readonly ok: true;
  readonly revision: number;
  readonly createRevision: number;
  /** The value the write replaced or deleted; absent for a create. */
  readonly prior: PriorValue | undefined;
}

/** A write whose precondition failed; it changed nothing and the batch went on without it. */
export interface RejectedWrite {
  readonly ok: false;
  readonly reason: 'key-exists' | 'not-found' | 'conflict';
  /** The key's current modRevision (0 when the key is absent). */
  readonly actualModRevision: number;
}

export type WriteOutcome = AppliedWrite | RejectedWrite;
