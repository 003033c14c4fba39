/** PodTemplates (core v1): the template gets the pod template defaults. */
import type { KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { GenericStrategy } from './generic-strategy.js';
import { asRecord } from './json-access.js';
import { defaultPodTemplate } from './pod-spec-defaults.js';

export class PodTemplateStrategy extends GenericStrategy {
  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    super.prepareForCreate(object, ctx);
    defaultPodTemplate(asRecord(object, 'template'));
  }

  override prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    defaultPodTemplate(asRecord(object, 'template'));
    super.prepareForUpdate(object, old, ctx);
  }
}
