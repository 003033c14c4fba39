/**
 * The name rules the strategies use: upstream's validators, checking a full name (not a prefix).
 */
import type { NameValidators } from '../registry/strategies/strategy-deps.js';
import { nameIsDns1035Label, nameIsDnsLabel, nameIsDnsSubdomain, nameIsPathSegment } from '../validation/name-validators.js';

export const nameValidators: NameValidators = {
  dns1123Subdomain: (name) => nameIsDnsSubdomain(name, false),
  dns1123Label: (name) => nameIsDnsLabel(name, false),
  dns1035Label: (name) => nameIsDns1035Label(name, false),
  pathSegment: (name) => nameIsPathSegment(name, false),
};
