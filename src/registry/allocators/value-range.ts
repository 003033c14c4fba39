/**
 * A finite range of allocatable values numbered 0..size-1, with the bands dynamic allocation
 * tries in order. Upstream splits each range into a small lower band meant for values clients
 * ask for by name and an upper band that automatic allocation uses first, so the two rarely meet.
 */
export interface ValueRange<T> {
  /** The range as configured, e.g. "10.0.0.0/24" or "30000-32767". */
  readonly description: string;
  readonly size: number;
  /** The offset of `value`, or undefined when it lies outside the range. */
  offsetOf(value: T): number | undefined;
  valueAt(offset: number): T;
  /** The marker key's last segment for `value`. */
  keyOf(value: T): string;
  /** The value a marker key's last segment names, or undefined for a foreign key. */
  valueOfKey(segment: string): T | undefined;
  /** Offset intervals [start, end) that automatic allocation tries, in order. */
  readonly dynamicBands: readonly (readonly [number, number])[];
}

/**
 * Upstream's split point (ServiceIPStaticSubrange / ServiceNodePortStaticSubrange): size/step,
 * clamped to [min, max], and no split for ranges smaller than `min`.
 */
export function staticBandSize(size: number, step: number, min: number, max: number): number {
  if (size < min) return 0;
  return Math.min(Math.max(min, Math.floor(size / step)), max);
}
