/**
 * batch/v1 jobs and cron jobs. A job's STATUS is the first of Complete, Failed, Terminating,
 * Suspended, FailureTarget, SuccessCriteriaMet that holds, else Running; DURATION runs from
 * startTime to completionTime (or to now while running).
 */
import { containerCells, formatLabelSelector, optionalBoolText } from '../cell-format.js';
import { humanDuration, parseTimestamp, since } from '../human-duration.js';
import { list, num, objects, optionalText, path, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrintContext, type PrintedCells, type PrinterTable } from '../printer.js';

/** Whether the first condition of `type` is True (later duplicates are ignored, as upstream does). */
function hasCondition(job: JsonObject, type: string): boolean {
  return objects(path(job, 'status', 'conditions')).find((c) => c.type === type)?.status === 'True';
}

function jobStatus(job: JsonObject): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if ((path(job, 'metadata', 'deletionTimestamp') ?? null) !== null) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  if (hasCondition(job, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

function completions(job: JsonObject): string {
  const succeeded = num(path(job, 'status', 'succeeded'));
  const wanted = path(job, 'spec', 'completions');
  if (typeof wanted === 'number') return `${succeeded}/${wanted}`;
  const parallelism = num(path(job, 'spec', 'parallelism'));
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: JsonObject, now: number): string {
  const start = parseTimestamp(path(job, 'status', 'startTime'));
  if (start === undefined) return '';
  const end = parseTimestamp(path(job, 'status', 'completionTime'));
  return humanDuration((end ?? now) - start);
}

function jobCells(job: JsonObject, ctx: PrintContext): PrintedCells {
  const { containers, images } = containerCells(path(job, 'spec', 'template', 'spec'));
  return {
    Status: jobStatus(job),
    Completions: completions(job),
    Duration: jobDuration(job, ctx.now),
    Containers: containers,
    Images: images,
    Selector: formatLabelSelector(path(job, 'spec', 'selector')),
  };
}

function cronJobCells(cronJob: JsonObject, ctx: PrintContext): PrintedCells {
  const jobSpec = path(cronJob, 'spec', 'jobTemplate', 'spec');
  const { containers, images } = containerCells(path(jobSpec, 'template', 'spec'));
  const lastSchedule = path(cronJob, 'status', 'lastScheduleTime');
  return {
    Schedule: optionalText(path(cronJob, 'spec', 'schedule')) ?? '',
    Timezone: optionalText(path(cronJob, 'spec', 'timeZone')) ?? '<none>',
    Suspend: optionalBoolText(path(cronJob, 'spec', 'suspend')),
    Active: list(path(cronJob, 'status', 'active')).length,
    'Last Schedule': lastSchedule === undefined || lastSchedule === null ? '<none>' : since(lastSchedule, ctx.now),
    Containers: containers,
    Images: images,
    Selector: formatLabelSelector(path(jobSpec, 'selector')),
  };
}

/** Printers keyed by "group/resource". */
export const batchPrinters: PrinterTable = {
  'batch/jobs': cellsPrinter(jobCells),
  'batch/cronjobs': cellsPrinter(cronJobCells),
};
