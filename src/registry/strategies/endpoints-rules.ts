/**
 * Endpoints (core v1) and EndpointSlices (discovery.k8s.io/v1): ports default to TCP, and a slice
 * port's name to "" (upstream's SetDefaults_EndpointPort), so clients find every field set.
 */
import { asRecord, defaultTo, recordsAt } from './json-access.js';
import type { TypeRules } from './rule-strategy.js';

export const ENDPOINTS_RULES: TypeRules = {
  defaults: (endpoints) => {
    for (const subset of recordsAt(endpoints, 'subsets')) for (const port of recordsAt(subset, 'ports')) defaultTo(port, 'protocol', 'TCP');
  },
};

export const ENDPOINT_SLICE_RULES: TypeRules = {
  defaults: (slice) => {
    for (const port of recordsAt(slice, 'ports')) {
      defaultTo(port, 'name', '');
      defaultTo(port, 'protocol', 'TCP');
    }
    for (const endpoint of recordsAt(slice, 'endpoints')) asRecord(endpoint, 'conditions');
  },
};
