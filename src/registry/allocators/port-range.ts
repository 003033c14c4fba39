/** An inclusive range of node ports, e.g. 30000-32767 (--service-node-port-range). */
import { staticBandSize, type ValueRange } from './value-range.js';

export class PortRange implements ValueRange<number> {
  readonly description: string;
  readonly size: number;
  readonly dynamicBands: readonly (readonly [number, number])[];

  /** @throws Error when the bounds are not ports or min > max. */
  constructor(
    private readonly min: number,
    max: number,
  ) {
    if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max > 65535 || min > max) {
      throw new Error(`invalid node port range ${min}-${max}`);
    }
    this.description = `${min}-${max}`;
    this.size = max - min + 1;
    const band = staticBandSize(this.size, 32, 16, 128);
    this.dynamicBands = band === 0 ? [[0, this.size]] : [[band, this.size], [0, band]];
  }

  offsetOf(value: number): number | undefined {
    const offset = value - this.min;
    return Number.isInteger(value) && offset >= 0 && offset < this.size ? offset : undefined;
  }

  valueAt(offset: number): number {
    return this.min + offset;
  }

  keyOf(value: number): string {
    return String(value);
  }

  valueOfKey(segment: string): number | undefined {
    return /^\d{1,5}$/.test(segment) ? Number(segment) : undefined;
  }
}
