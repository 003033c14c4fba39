/**
 * An allocator hands out unique values from a fixed range (Service cluster IPs, node ports). It is
 * shared by every server replica on one store, so a value is taken by creating a marker key in the
 * storage: the storage's create-if-absent is the only arbiter, and no replica keeps state that
 * could disagree with another's.
 */

/** Why an allocation failed. */
export type AllocationFailure =
  /** The value lies outside the range. */
  | 'out-of-range'
  /** The value is held by someone else. */
  | 'taken'
  /** No value is free. */
  | 'full';

export class AllocationError extends Error {
  override readonly name = 'AllocationError';

  constructor(
    readonly failure: AllocationFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface Allocator<T> {
  /** The range, as given (e.g. "10.0.0.0/24" or "30000-32767"), for error messages. */
  readonly range: string;
  /** Whether `value` lies in the range. */
  contains(value: T): boolean;
  /**
   * Takes `value` for `owner` (a free-form label such as "services/ns/name", kept for repair).
   * Throws AllocationError 'out-of-range' or 'taken'.
   */
  allocate(value: T, owner: string): Promise<void>;
  /** Takes some free value for `owner`. Throws AllocationError 'full'. */
  allocateNext(owner: string): Promise<T>;
  /**
   * A value that is free right now, without taking it (dry runs). Throws AllocationError 'full'.
   */
  peekNext(): Promise<T>;
  /** Whether `value` is free right now (dry runs). */
  isFree(value: T): Promise<boolean>;
  /** Gives `value` back; releasing a free value does nothing. */
  release(value: T): Promise<void>;
}
