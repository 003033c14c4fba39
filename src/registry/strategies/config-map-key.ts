/**
 * Keys of ConfigMap and Secret data (upstream's IsConfigMapKey): they become file names when
 * mounted as a volume, hence the character set and the bans on "." and "..".
 */

const KEY_FORMAT = '[-._a-zA-Z0-9]+';
const KEY_PATTERN = new RegExp(`^${KEY_FORMAT}$`);
const MAX_KEY_LENGTH = 253;
const KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' " +
  `(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '${KEY_FORMAT}')`;

/** Error messages for `key` in upstream's words; empty when valid. */
export function configMapKeyErrors(key: string): string[] {
  const errors: string[] = [];
  if (key.length > MAX_KEY_LENGTH) errors.push(`must be no more than ${MAX_KEY_LENGTH} characters`);
  if (!KEY_PATTERN.test(key)) errors.push(KEY_MESSAGE);
  if (key === '.') errors.push("must not be '.'");
  else if (key === '..') errors.push("must not be '..'");
  else if (key.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}
