/**
 * Events of both APIs: core/v1 Event and events.k8s.io/v1 Event name the same stored data with
 * different field names (involvedObject/regarding, message/note, source/deprecatedSource...).
 * Upstream prints both through one printer on the internal type; we read either spelling.
 */
import { since } from '../human-duration.js';
import { num, objectAt, optionalObject, path, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrintContext, type PrintedCells, type PrinterTable } from '../printer.js';

/** The event's fields under their core/v1 names. */
interface EventView {
  firstTimestamp: unknown;
  lastTimestamp: unknown;
  eventTime: unknown;
  count: number;
  series: JsonObject | undefined;
  involved: JsonObject;
  source: JsonObject;
  message: string;
}

function coreView(event: JsonObject): EventView {
  return {
    firstTimestamp: event.firstTimestamp,
    lastTimestamp: event.lastTimestamp,
    eventTime: event.eventTime,
    count: num(event.count),
    series: optionalObject(event.series),
    involved: objectAt(event.involvedObject),
    source: objectAt(event.source),
    message: text(event.message),
  };
}

function eventsApiView(event: JsonObject): EventView {
  return {
    firstTimestamp: event.deprecatedFirstTimestamp,
    lastTimestamp: event.deprecatedLastTimestamp,
    eventTime: event.eventTime,
    count: num(event.deprecatedCount),
    series: optionalObject(event.series),
    involved: objectAt(event.regarding),
    source: objectAt(event.deprecatedSource),
    message: text(event.note),
  };
}

function isSet(timestamp: unknown): boolean {
  return typeof timestamp === 'string' && timestamp !== '';
}

/** `component, host`, falling back to the reporting controller and instance. */
function sourceText(view: EventView, event: JsonObject): string {
  const component = text(view.source.component) || text(event.reportingController);
  const host = text(view.source.host) || text(event.reportingInstance);
  return host === '' ? component : `${component}, ${host}`;
}

function eventCells(event: JsonObject, view: EventView, ctx: PrintContext): PrintedCells {
  const firstSeen = isSet(view.firstTimestamp) ? since(view.firstTimestamp, ctx.now) : since(view.eventTime, ctx.now);
  let lastSeen = isSet(view.lastTimestamp) ? since(view.lastTimestamp, ctx.now) : firstSeen;
  let count = view.count;
  if (view.series !== undefined) {
    lastSeen = since(view.series.lastObservedTime, ctx.now);
    count = num(view.series.count);
  } else if (count === 0) {
    // Singleton events of the newer API carry no count.
    count = 1;
  }
  const kind = text(view.involved.kind).toLowerCase();
  const name = text(view.involved.name);
  return {
    'Last Seen': lastSeen,
    Type: text(event.type),
    Reason: text(event.reason),
    Object: name === '' ? kind : `${kind}/${name}`,
    Subobject: text(view.involved.fieldPath),
    Source: sourceText(view, event),
    Message: view.message.trim(),
    'First Seen': firstSeen,
    Count: count,
    Name: text(path(event, 'metadata', 'name')),
  };
}

/** Printers keyed by "group/resource". */
export const eventPrinters: PrinterTable = {
  '/events': cellsPrinter((event, ctx) => eventCells(event, coreView(event), ctx)),
  'events.k8s.io/events': cellsPrinter((event, ctx) => eventCells(event, eventsApiView(event), ctx)),
};
