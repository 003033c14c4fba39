/**
 * The name rules the strategies use, in upstream's words.
 */
import type { NameValidators } from '../registry/strategies/strategy-deps.js';

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';

function matcher(pattern: string): RegExp {
  return new RegExp(`^${pattern}$`);
}

const subdomain = matcher(DNS1123_SUBDOMAIN);
const label = matcher(DNS1123_LABEL);
const label1035 = matcher(DNS1035_LABEL);

function maxLength(name: string, max: number): string[] {
  return name.length > max ? [`must be no more than ${max} characters`] : [];
}

export const nameValidators: NameValidators = {
  dns1123Subdomain: (name) => [
    ...maxLength(name, 253),
    ...(subdomain.test(name)
      ? []
      : [`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN}')`]),
  ],
  dns1123Label: (name) => [
    ...maxLength(name, 63),
    ...(label.test(name)
      ? []
      : [`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL}')`]),
  ],
  dns1035Label: (name) => [
    ...maxLength(name, 63),
    ...(label1035.test(name)
      ? []
      : [`a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${DNS1035_LABEL}')`]),
  ],
  pathSegment: (name) => {
    if (name === '.' || name === '..') return [`may not be '${name}'`];
    for (const bad of ['/', '%']) if (name.includes(bad)) return [`may not contain '${bad}'`];
    return [];
  },
};
