// ToolScale weather's tools (tau2/domains/weather/tools.py), ported call for call with the same
// errors, results and quirks: times are read with Python 3.11's datetime.fromisoformat (after a
// trailing "Z" becomes "+00:00"), and comparing a time with an offset to one without raises
// Python's TypeError; windows overlap when they touch; of two forecasts for the same hour or day,
// the one issued later wins. ISO week dates ("2025-W01-1"), which fromisoformat also reads, are
// refused here as an invalid format (docs/evaluation.md). Pure TypeScript.

import { construct } from '../../model.ts';
import { attributeError, typeError, valueError } from '../../pyErrors.ts';
import { compare, inSet } from '../../pyOps.ts';
import { compareCodePoints, pyEquals, pyStr, pyTruthy, pyTypeName, type PyModel, type PyValue } from '../../pyValues.ts';
import { TableToolkit } from '../../tableSeed.ts';
import { fn, type ToolFunction } from '../../toolkit.ts';
import { type Args, calculateTool, optional, transferTool } from '../common.ts';
import { LocationCode, VerificationEntry, type ForecastValue, type LocationValue, type ObservationValue, type WeatherDb } from './model.ts';

/** A datetime: microseconds since the epoch (of its wall time when it has no offset). */
interface Instant {
  micros: number;
  aware: boolean;
}

const EXTENDED_DATE = /^(\d{4})-(\d{2})-(\d{2})/;
const BASIC_DATE = /^(\d{4})(\d{2})(\d{2})/;
// Hours, then optional minutes and seconds, then an optional fraction after whichever came last.
const TIME = /^(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?(?:[.,](\d+))?$/;
const OFFSET = /^([+-])(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?(?:[.,](\d+))?$/;

/** Microseconds from digits of a fraction of a second (more than six are dropped). */
const fraction = (digits: string | undefined): number => Number((digits ?? '').slice(0, 6).padEnd(6, '0'));

/** `datetime.fromisoformat(text)` as Python 3.11 reads it, or undefined where it raises. */
function fromIsoFormat(text: string): Instant | undefined {
  const date = EXTENDED_DATE.exec(text) ?? BASIC_DATE.exec(text);
  if (!date) return undefined;
  const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 1 : 0);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  const midnight = new Date(0);
  midnight.setUTCFullYear(year, month - 1, day);
  let micros = midnight.getTime() * 1000;
  const rest = text.slice(date[0].length);
  if (rest === '') return { micros, aware: false };
  const body = rest.slice(1); // the separator: any one character
  const zoneAt = body.search(/[+-]|Z$/);
  const time = TIME.exec(zoneAt < 0 ? body : body.slice(0, zoneAt));
  if (!time) return undefined;
  const [h, m, s] = [Number(time[1]), Number(time[2] ?? 0), Number(time[3] ?? 0)];
  if (h > 23 || m > 59 || s > 59) return undefined;
  micros += ((h * 60 + m) * 60 + s) * 1e6 + fraction(time[4]);
  if (zoneAt < 0) return { micros, aware: false };
  const zone = body.slice(zoneAt);
  if (zone === 'Z') return { micros, aware: true };
  const offset = OFFSET.exec(zone);
  if (!offset) return undefined;
  const [oh, om, os] = [Number(offset[2]), Number(offset[3] ?? 0), Number(offset[4] ?? 0)];
  const offsetMicros = ((oh * 60 + om) * 60 + os) * 1e6 + fraction(offset[5]);
  if (offsetMicros >= 864e8 || om > 59 || os > 59) return undefined;
  return { micros: micros + (offset[1] === '-' ? offsetMicros : -offsetMicros), aware: true };
}

/** `_parse_utc`: a trailing "Z" read as "+00:00", and any failure worded as tools.py words it. */
function parseUtc(value: PyValue): Instant {
  if (typeof value !== 'string') throw attributeError(pyTypeName(value), 'endswith');
  const text = value.endsWith('Z') ? `${value.slice(0, -1)}+00:00` : value;
  const instant = fromIsoFormat(text);
  if (instant === undefined) throw valueError(`Invalid UTC datetime format: ${text}`);
  return instant;
}

/** `a - b` as an ordering, with Python's TypeError between a time with an offset and one without. */
function order(a: Instant, b: Instant): number {
  if (a.aware !== b.aware) throw typeError("can't compare offset-naive and offset-aware datetimes");
  return a.micros - b.micros;
}

/** A stable sort by a key, as `list.sort(key=…, reverse=…)`. */
function sortBy<T>(items: T[], key: (item: T) => Instant, reverse = false): T[] {
  const keyed = items.map((item) => ({ item, key: key(item) }));
  keyed.sort((x, y) => (reverse ? order(y.key, x.key) : order(x.key, y.key)));
  return keyed.map(({ item }) => item);
}

export class WeatherTools extends TableToolkit<WeatherDb> {
  readonly className = 'WeatherTools';

  readonly #location = this.rowsOf<LocationValue>('locations', 'Location {id} not found');
  readonly #forecast = this.rowsOf<ForecastValue>('forecasts', 'Forecast {id} not found');

  readonly functions: Readonly<Record<string, ToolFunction<WeatherTools>>> = {
    list_all_locations: fn([], (kit) => kit.#listLocations(), 'read'),
    get_location_details: fn(['location_id'], (kit, a) => kit.#location(a.location_id!), 'read'),
    get_forecast_details: fn(['forecast_id'], (kit, a) => kit.#forecast(a.forecast_id!), 'read'),
    search_forecasts: fn(['location_id', ...['valid_from_utc', 'valid_to_utc', 'source_model'].map(optional)], (kit, a) => kit.#search(a.location_id!, a.valid_from_utc!, a.valid_to_utc!, a.source_model!), 'read'),
    get_hourly_forecast_window: fn(['location_id', 'start_utc', 'end_utc', optional('source_model')], (kit, a) => kit.#hourly(a), 'read'),
    get_daily_forecast_range: fn(['location_id', 'start_date', 'end_date', optional('source_model')], (kit, a) => kit.#daily(a), 'read'),
    get_current_conditions: fn(['location_id'], (kit, a) => kit.#current(a.location_id!), 'read'),
    get_observations: fn(['location_id', 'start_utc', 'end_utc', optional('qc_filter')], (kit, a) => kit.#observations(a), 'read'),
    verify_forecast_for_date: fn(
      ['forecast_id', 'date', 'actual_high_c', 'actual_low_c', 'actual_precip_mm', { name: 'notes', default: () => '' }, { name: 'status', default: () => 'verified' }],
      (kit, a) => kit.#verify(a),
      'write',
    ),
    calculate: calculateTool,
    transfer_to_human_agents: transferTool,
  };

  #listLocations(): PyModel[] {
    return ([...this.db.locations.values()] as LocationValue[]).map((loc) =>
      construct(LocationCode, { location_id: loc.location_id, label: `${loc.name.city}, ${loc.name.state}, ${loc.name.country}` }),
    );
  }

  #search(locationId: PyValue, from: PyValue, to: PyValue, sourceModel: PyValue): ForecastValue[] {
    this.#location(locationId);
    const results = ([...this.db.forecasts.values()] as ForecastValue[]).filter((f) => {
      if (!pyEquals(f.location_id, locationId)) return false;
      if (pyTruthy(sourceModel) && !pyEquals(f.source_model, sourceModel)) return false;
      if (pyTruthy(from) && pyTruthy(to)) {
        const [a0, a1, b0, b1] = [parseUtc(f.valid_from_utc), parseUtc(f.valid_to_utc), parseUtc(from), parseUtc(to)];
        const latestStart = order(b0, a0) > 0 ? b0 : a0;
        const earliestEnd = order(b1, a1) < 0 ? b1 : a1;
        if (order(latestStart, earliestEnd) > 0) return false;
      }
      return true;
    });
    return sortBy(results, (f) => parseUtc(f.issued_at_utc), true);
  }

  /** The window's bounds, parsed and in order. */
  #window(a: Args): [Instant, Instant] {
    this.#location(a.location_id!);
    const [start, end] = [parseUtc(a.start_utc!), parseUtc(a.end_utc!)];
    if (order(start, end) > 0) throw valueError('start_utc must be <= end_utc');
    return [start, end];
  }

  #hourly(a: Args): PyModel[] {
    const [start, end] = this.#window(a);
    const slots = new Map<string, [Instant, PyModel & { time_utc: string }]>();
    for (const f of this.#search(a.location_id!, a.start_utc!, a.end_utc!, a.source_model!)) {
      const issued = parseUtc(f.issued_at_utc);
      for (const h of f.hourly) {
        const time = parseUtc(h.time_utc);
        if (order(time, start) < 0 || order(time, end) > 0) continue;
        const current = slots.get(h.time_utc);
        if (current === undefined || order(issued, current[0]) > 0) slots.set(h.time_utc, [issued, h]);
      }
    }
    return sortBy([...slots.values()], ([, h]) => parseUtc(h.time_utc)).map(([, h]) => h);
  }

  #daily(a: Args): PyModel[] {
    this.#location(a.location_id!);
    if (compare(a.start_date!, a.end_date!, '>')) throw valueError('start_date must be <= end_date');
    const days = new Map<string, [Instant, PyModel]>();
    for (const f of this.#search(a.location_id!, null, null, a.source_model!)) {
      const issued = parseUtc(f.issued_at_utc);
      for (const d of f.daily) {
        if (compare(d.date, a.start_date!, '<') || compare(d.date, a.end_date!, '>')) continue;
        const current = days.get(d.date);
        if (current === undefined || order(issued, current[0]) > 0) days.set(d.date, [issued, d]);
      }
    }
    return [...days.keys()].sort(compareCodePoints).map((date) => days.get(date)![1]);
  }

  #current(locationId: PyValue): ObservationValue {
    this.#location(locationId);
    const candidates = ([...this.db.observations.values()] as ObservationValue[]).filter((o) => pyEquals(o.location_id, locationId));
    if (candidates.length === 0) throw valueError(`No observations found for location ${pyStr(locationId)}`);
    return sortBy(candidates, (o) => parseUtc(o.timestamp_utc), true)[0]!;
  }

  #observations(a: Args): ObservationValue[] {
    const [start, end] = this.#window(a);
    const out = ([...this.db.observations.values()] as ObservationValue[]).filter((o) => {
      if (!pyEquals(o.location_id, a.location_id!)) return false;
      const time = parseUtc(o.timestamp_utc);
      if (order(time, start) < 0 || order(time, end) > 0) return false;
      return !(pyTruthy(a.qc_filter) && !pyEquals(o.quality_control.qc_flag, a.qc_filter!));
    });
    return sortBy(out, (o) => parseUtc(o.timestamp_utc));
  }

  #verify(a: Args): ForecastValue {
    if (!inSet(['pending', 'verified', 'revised'], a.status!)) throw valueError('Invalid status');
    this.#forecast(a.forecast_id!);
    const entry = construct(VerificationEntry, {
      status: a.status!,
      actual_high_c: a.actual_high_c!,
      actual_low_c: a.actual_low_c!,
      actual_precip_mm: a.actual_precip_mm!,
      notes: a.notes!,
    });
    inSet([], a.date!); // a dict key: an unhashable date raises as in Python
    const forecast = this.own<ForecastValue>('forecasts', a.forecast_id as string);
    forecast.verification_by_date.set(pyStr(a.date!), entry);
    return forecast;
  }
}
