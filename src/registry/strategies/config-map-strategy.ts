/**
 * ConfigMaps (upstream pkg/registry/core/configmap): valid keys, no key in both data and
 * binaryData, at most 1 MiB of payload, and the `immutable` contract.
 */
import type { FieldError } from '../../api/errors.js';
import type { KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { configMapKeyErrors } from './config-map-key.js';
import { fieldInvalid, fieldTooLong, keyPath } from '../../validation/field-errors.js';
import { GenericStrategy } from './generic-strategy.js';
import { validateImmutableData } from './immutable-data.js';
import { isRecord } from './json-access.js';

/** Upstream's MaxSecretSize, shared by ConfigMaps and Secrets. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

export class ConfigMapStrategy extends GenericStrategy {
  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    return validateConfigMap(object);
  }

  override validateUpdate(object: KubeObject, old: KubeObject, _ctx: StrategyContext): FieldError[] {
    return [...validateImmutableData(object, old, ['data', 'binaryData']), ...validateConfigMap(object)];
  }
}

function validateConfigMap(object: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const data = isRecord(object['data']) ? object['data'] : {};
  const binaryData = isRecord(object['binaryData']) ? object['binaryData'] : {};
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const message of configMapKeyErrors(key)) errors.push(fieldInvalid(keyPath('data', key), key, message));
    if (key in binaryData) errors.push(fieldInvalid(keyPath('data', key), key, 'duplicate of key present in binaryData'));
    size += typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : 0;
  }
  for (const [key, value] of Object.entries(binaryData)) {
    for (const message of configMapKeyErrors(key)) errors.push(fieldInvalid(keyPath('binaryData', key), key, message));
    size += typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;
  }
  // Upstream reports the size on the root path, which renders as "[]".
  if (size > MAX_PAYLOAD_BYTES) errors.push(fieldTooLong('[]', MAX_PAYLOAD_BYTES));
  return errors;
}
