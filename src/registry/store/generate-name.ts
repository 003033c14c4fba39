/**
 * Names for `metadata.generateName`: the prefix (cut so the result stays within 63 characters)
 * followed by five random characters from upstream's alphabet, which avoids vowels and look-alike
 * digits so generated names never spell words.
 */
import { randomInt } from 'node:crypto';

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const RANDOM_LENGTH = 5;
const MAX_NAME_LENGTH = 63;

export function generateName(prefix: string): string {
  const base = prefix.length > MAX_NAME_LENGTH - RANDOM_LENGTH ? prefix.slice(0, MAX_NAME_LENGTH - RANDOM_LENGTH) : prefix;
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return base + suffix;
}
