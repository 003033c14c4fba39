/**
 * CertificateSigningRequests (upstream pkg/registry/certificates/certificates). A request records
 * who asked for it and is then frozen: its three write paths each change one thing only.
 * - the main resource: metadata only (spec and status stay as stored);
 * - approval (what `kubectl certificate approve|deny` writes): status.conditions, the decision;
 * - status (what a signer writes): status.certificate and the conditions other than the decision.
 */
import type { FieldError } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../object.js';
import type { UserInfo } from '../../auth/user-info.js';
import type { StrategyContext } from '../strategy.js';
import { APPROVED, DENIED, populateConditionTimestamps, preserveConditionInstances } from './csr-conditions.js';
import { validateCsr, validateCsrUpdate, validationOptions } from './csr-validation.js';
import { GenericStrategy } from './generic-strategy.js';
import { asRecord, recordAt } from './json-access.js';

export const APPROVAL = 'approval';

export class CertificateSigningRequestStrategy extends GenericStrategy {
  /** Records the requesting user in the spec and starts with no conditions (no pre-approved requests). */
  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    // Upstream's strategy sets no generation for this type.
    delete metaOf(object).generation;
    const spec = asRecord(object, 'spec');
    for (const field of ['username', 'uid', 'groups', 'extra']) delete spec[field];
    if (ctx.user) Object.assign(spec, requesterFields(ctx.user));
    object['status'] = {};
  }

  override prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    const written = recordAt(object, 'status') ?? {};
    object['spec'] = old['spec'];
    if (ctx.subresource === 'status') {
      object['status'] = written;
      // Decisions are the approval subresource's; one added or removed here is left for validation to refuse.
      preserveConditionInstances(object, old, APPROVED);
      preserveConditionInstances(object, old, DENIED);
      populateConditionTimestamps(object, old, ctx.now);
      return;
    }
    object['status'] = structuredClone(recordAt(old, 'status') ?? {});
    if (ctx.subresource === APPROVAL) {
      setConditions(object, written['conditions']);
      populateConditionTimestamps(object, old, ctx.now);
    }
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    return validateCsr(object, validationOptions(object, undefined));
  }

  override validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    const opts = validationOptions(object, old);
    return validateCsrUpdate(object, old, {
      ...opts,
      allowSettingApprovalConditions: ctx.subresource === APPROVAL,
      allowSettingCertificate: ctx.subresource === 'status',
    });
  }
}

/** The spec fields naming the requester; empty values are left out, as Go's omitempty does. */
function requesterFields(user: UserInfo): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (user.name) fields['username'] = user.name;
  if (user.uid) fields['uid'] = user.uid;
  if (user.groups.length > 0) fields['groups'] = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) fields['extra'] = structuredClone(user.extra);
  return fields;
}

/** Sets status.conditions to `conditions`; an absent or empty list leaves none (omitempty). */
function setConditions(object: KubeObject, conditions: unknown): void {
  const status = asRecord(object, 'status');
  if (Array.isArray(conditions) && conditions.length > 0) status['conditions'] = conditions;
  else delete status['conditions'];
}
