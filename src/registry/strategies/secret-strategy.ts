/**
 * Secrets (upstream pkg/registry/core/secret and the v1 defaults): stringData is folded into data,
 * the type defaults to Opaque and never changes, each built-in type requires its keys, the payload
 * is at most 1 MiB, and `immutable: true` freezes data.
 */
import type { FieldError } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { MAX_PAYLOAD_BYTES } from './config-map-strategy.js';
import { configMapKeyErrors } from './config-map-key.js';
import { fieldImmutable, fieldInvalid, fieldRequired, fieldTooLong, keyPath } from '../../validation/field-errors.js';
import { GenericStrategy } from './generic-strategy.js';
import { goJsonObjectError } from './go-json-check.js';
import { validateImmutableData } from './immutable-data.js';
import { isRecord } from './json-access.js';
import {
  BASIC_AUTH_PASSWORD_KEY,
  BASIC_AUTH_USERNAME_KEY,
  canonicalSecretType,
  DOCKERCFG_KEY,
  DOCKER_CONFIG_JSON_KEY,
  inSpellingOf,
  SECRET_TYPE_OPAQUE,
  SERVICE_ACCOUNT_NAME_ANNOTATION,
  SSH_AUTH_PRIVATE_KEY,
  TLS_CERT_KEY,
  TLS_PRIVATE_KEY_KEY,
} from '../../api/secret-types.js';

export class SecretStrategy extends GenericStrategy {
  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    super.prepareForCreate(object, ctx);
    normalizeSecret(object);
  }

  override prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    super.prepareForUpdate(object, old, ctx);
    normalizeSecret(object);
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    return validateSecret(object);
  }

  override validateUpdate(object: KubeObject, old: KubeObject, _ctx: StrategyContext): FieldError[] {
    const errors: FieldError[] = [];
    if (object['type'] !== old['type']) errors.push(fieldImmutable('type', object['type'] ?? ''));
    errors.push(...validateImmutableData(object, old, ['data']), ...validateSecret(object));
    return errors;
  }
}

/**
 * Upstream's v1 conversion and defaults: each stringData entry replaces the data entry of its key
 * (base64 of its UTF-8 bytes) and stringData is dropped; an empty type becomes Opaque.
 */
export function normalizeSecret(object: KubeObject): void {
  const stringData = object['stringData'];
  if (isRecord(stringData)) {
    const data = isRecord(object['data']) ? object['data'] : {};
    for (const [key, value] of Object.entries(stringData)) {
      if (typeof value === 'string') data[key] = Buffer.from(value, 'utf8').toString('base64');
    }
    if (Object.keys(data).length > 0) object['data'] = data;
  }
  delete object['stringData'];
  if (object['type'] === undefined || object['type'] === null || object['type'] === '') object['type'] = SECRET_TYPE_OPAQUE;
}

/** Decoded payload of each data key (absent when the value is not a string). */
function decodedData(object: KubeObject): Map<string, Buffer> {
  const data = object['data'];
  const out = new Map<string, Buffer>();
  if (!isRecord(data)) return out;
  for (const [key, value] of Object.entries(data)) out.set(key, Buffer.from(typeof value === 'string' ? value : '', 'base64'));
  return out;
}

function validateSecret(object: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const data = decodedData(object);
  let size = 0;
  for (const [key, value] of data) {
    for (const message of configMapKeyErrors(key)) errors.push(fieldInvalid(keyPath('data', key), key, message));
    size += value.length;
  }
  if (size > MAX_PAYLOAD_BYTES) errors.push(fieldTooLong('data', MAX_PAYLOAD_BYTES));
  const type = typeof object['type'] === 'string' ? object['type'] : '';
  errors.push(...validateTypeKeys(object, type, data));
  return errors;
}

/** The keys (or annotation) each built-in type requires, checked as upstream's ValidateSecret. */
function validateTypeKeys(object: KubeObject, type: string, data: Map<string, Buffer>): FieldError[] {
  const required = (key: string): FieldError => fieldRequired(keyPath('data', key), '');
  switch (canonicalSecretType(type)) {
    case 'kubernetes.io/service-account-token': {
      const annotations = metaOf(object).annotations ?? {};
      const spelled = inSpellingOf(type, SERVICE_ACCOUNT_NAME_ANNOTATION);
      const name = annotations[spelled] || annotations[SERVICE_ACCOUNT_NAME_ANNOTATION];
      return name ? [] : [fieldRequired(keyPath('metadata.annotations', spelled))];
    }
    case 'kubernetes.io/dockercfg':
      return requireJsonKey(data, DOCKERCFG_KEY);
    case 'kubernetes.io/dockerconfigjson':
      return requireJsonKey(data, DOCKER_CONFIG_JSON_KEY);
    case 'kubernetes.io/basic-auth':
      // Either key may be empty, but one of them must be there.
      return data.has(BASIC_AUTH_USERNAME_KEY) || data.has(BASIC_AUTH_PASSWORD_KEY)
        ? []
        : [required(BASIC_AUTH_USERNAME_KEY), required(BASIC_AUTH_PASSWORD_KEY)];
    case 'kubernetes.io/ssh-auth':
      return (data.get(SSH_AUTH_PRIVATE_KEY)?.length ?? 0) > 0 ? [] : [required(SSH_AUTH_PRIVATE_KEY)];
    case 'kubernetes.io/tls':
      return [TLS_CERT_KEY, TLS_PRIVATE_KEY_KEY].filter((key) => !data.has(key)).map(required);
    default:
      return [];
  }
}

function requireJsonKey(data: Map<string, Buffer>, key: string): FieldError[] {
  const value = data.get(key);
  if (value === undefined) return [fieldRequired(keyPath('data', key))];
  const error = goJsonObjectError(value.toString('utf8'));
  return error === undefined ? [] : [fieldInvalid(keyPath('data', key), '<secret contents redacted>', error)];
}
