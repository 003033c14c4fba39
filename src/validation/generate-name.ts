/**
 * Names for objects created with metadata.generateName, as upstream makes them: the prefix cut to
 * 58 characters, then 5 random characters from an alphabet without vowels (so no words are
 * spelled) and without characters easily confused (0, 1, 3, a, e, i, o, u, y ...).
 */
import { randomInt } from 'node:crypto';

/** Upstream's alphabet for random name suffixes. */
export const NAME_SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
export const RANDOM_SUFFIX_LENGTH = 5;
/** Longest prefix kept: generated names stay within 63 characters, a DNS label. */
export const MAX_GENERATED_PREFIX_LENGTH = 63 - RANDOM_SUFFIX_LENGTH;

/** A source of random integers in [0, max): crypto.randomInt by default; tests pass their own. */
export type RandomInt = (max: number) => number;

/** `base` (cut to 58 characters) plus a random 5-character suffix. */
export function generateName(base: string, random: RandomInt = randomInt): string {
  let suffix = '';
  for (let i = 0; i < RANDOM_SUFFIX_LENGTH; i++) suffix += NAME_SUFFIX_ALPHABET[random(NAME_SUFFIX_ALPHABET.length)];
  return base.slice(0, MAX_GENERATED_PREFIX_LENGTH) + suffix;
}
