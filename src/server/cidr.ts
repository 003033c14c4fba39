/** CIDR ranges, for --service-cluster-ip-range and the serving certificate's service IP. */
import { ipAddressValue } from '../util/ip-address.js';

export interface Cidr {
  readonly family: 4 | 6;
  /** The network address as an integer. */
  readonly network: bigint;
  readonly prefixLength: number;
}

/** Parses `10.0.0.0/24` or `fd00::/108`. Throws an Error naming the problem. */
export function parseCidr(text: string): Cidr {
  const slash = text.indexOf('/');
  if (slash < 0) throw new Error(`invalid CIDR address: ${text}`);
  const address = text.slice(0, slash);
  const lengthText = text.slice(slash + 1);
  const parsed = ipAddressValue(address);
  if (!parsed || !/^\d{1,3}$/.test(lengthText)) throw new Error(`invalid CIDR address: ${text}`);
  const { family, value } = parsed;
  const prefixLength = Number(lengthText);
  const bits = family === 4 ? 32 : 128;
  if (prefixLength > bits) throw new Error(`invalid CIDR address: ${text}`);
  const hostBits = BigInt(bits - prefixLength);
  const network = (value >> hostBits) << hostBits;
  return { family, network, prefixLength };
}

/** The first usable address (network + 1): the cluster's own Service IP, as upstream allocates it. */
export function firstAddress(cidr: Cidr): string {
  const value = cidr.network + 1n;
  return cidr.family === 4 ? bigIntToIpv4(value) : bigIntToIpv6(value);
}

function bigIntToIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

function bigIntToIpv6(value: bigint): string {
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
  // Compress the longest run of zero groups, as the canonical form does.
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.length).join(':')}`;
}
