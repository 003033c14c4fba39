/**
 * The addresses of an IPv4 CIDR that Services may use: without the network and broadcast
 * addresses (ranges of /31 and /32 have no such addresses to spare and are rejected), and without
 * the first usable address for automatic allocation, which upstream keeps for the `kubernetes`
 * Service of the default namespace.
 */
import { staticBandSize, type ValueRange } from './value-range.js';

/** Parses a dotted IPv4 address; undefined when it is not one. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value;
}

export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

export class Ipv4Range implements ValueRange<string> {
  readonly size: number;
  readonly dynamicBands: readonly (readonly [number, number])[];
  /** The first usable address (network + 1), offset 0. */
  private readonly base: number;

  /** @throws Error when `cidr` is not an IPv4 CIDR with at least two usable addresses. */
  constructor(readonly description: string) {
    const [address, bits, extra] = description.split('/');
    const network = address === undefined ? undefined : parseIpv4(address);
    const prefix = Number(bits);
    if (network === undefined || extra !== undefined || !/^\d{1,2}$/.test(bits ?? '') || prefix > 30) {
      throw new Error(`invalid IPv4 service CIDR ${JSON.stringify(description)}: need a.b.c.d/n with n <= 30`);
    }
    const blockSize = 2 ** (32 - prefix);
    if (network % blockSize !== 0) throw new Error(`invalid IPv4 service CIDR ${JSON.stringify(description)}: host bits set`);
    this.base = network + 1;
    this.size = blockSize - 2;
    // Offset 0 is the kubernetes Service's address: automatic allocation never hands it out.
    const band = staticBandSize(blockSize, 16, 16, 256);
    this.dynamicBands = band <= 1 || band >= this.size ? [[1, this.size]] : [[band, this.size], [1, band]];
  }

  offsetOf(value: string): number | undefined {
    const address = parseIpv4(value);
    if (address === undefined) return undefined;
    const offset = address - this.base;
    return offset >= 0 && offset < this.size ? offset : undefined;
  }

  valueAt(offset: number): string {
    return formatIpv4(this.base + offset);
  }

  keyOf(value: string): string {
    return value;
  }

  valueOfKey(segment: string): string | undefined {
    return parseIpv4(segment) === undefined ? undefined : segment;
  }
}
