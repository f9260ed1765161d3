// ToolScale restaurant's data model (tau2/domains/restaurant/data_model.py), field by field in its
// order. Pure TypeScript.

import { t } from '../../model.ts';
import type { PyModel, PyValue } from '../../pyValues.ts';
import { database, opt, shape } from '../common.ts';

const PlateModifiers = shape('PlateModifiers', { spice_level: opt(t.str), portion: opt(t.str), protein: opt(t.str), preparation: opt(t.str) });
const Plate = shape('Plate', { plate_ref: t.str, modifiers: t.model(PlateModifiers), served_today: t.bool, cost: t.float });
const Dish = shape('Dish', { title: t.str, dish_ref: t.str, selections: t.dict(t.model(Plate)) });
const GuestIdentity = shape('GuestIdentity', { given: t.str, family: t.str });
export const PatronLocation = shape('PatronLocation', { line_one: t.str, line_two: t.str, municipality: t.str, nation: t.str, province: t.str, postal_code: t.str });
const PaymentInstrumentMetadata = shape('PaymentInstrumentMetadata', { issuer: t.str, tail_digits: t.str });
const PaymentInstrument = shape('PaymentInstrument', { origin: t.str, instrument_ref: t.str, metadata: t.model(PaymentInstrumentMetadata) });
const Patron = shape('Patron', {
  guest_ref: t.str,
  identity: t.model(GuestIdentity),
  location: t.model(PatronLocation),
  contact_email: t.str,
  saved_instruments: t.dict(t.model(PaymentInstrument)),
  ticket_log: t.list(t.str),
});
export const TableInfo = shape('TableInfo', { zone: t.str, table_no: t.str, seat_count: t.int });
const LineEntryMods = shape('LineEntryMods', { heat: opt(t.str), sauce: opt(t.str), side: opt(t.str) });
const LineEntry = shape('LineEntry', { label: t.str, dish_ref: t.str, plate_ref: t.str, cost: t.float, mods: t.model(LineEntryMods) });
const PrepBatch = shape('PrepBatch', { parcel_tags: t.list(t.str), plate_refs: t.list(t.str) });
export const TicketCharge = shape('TicketCharge', { kind: t.str, total: t.float, instrument_ref: t.str });
const ServiceTicket = shape('ServiceTicket', {
  ticket_ref: t.str,
  guest_ref: t.str,
  service_mode: t.choice(['dine_in', 'takeout', 'delivery']),
  dropoff: opt(t.model(PatronLocation)),
  table_info: opt(t.model(TableInfo)),
  line_entries: t.list(t.model(LineEntry)),
  state: t.str,
  prep_batches: t.list(t.model(PrepBatch)),
  charges: t.list(t.model(TicketCharge)),
});
export const RestaurantDbSchema = database('RestaurantDB', { menu_board: Dish, patron_registry: Patron, service_tickets: ServiceTicket });

// The shapes the tools read and write (a model's dump form).
export type PlateValue = PyModel & { plate_ref: string; served_today: boolean; cost: PyValue };
export type DishValue = PyModel & { title: string; dish_ref: string; selections: Map<string, PyValue> };
export type PatronValue = PyModel & {
  identity: { given: string; family: string };
  location: { postal_code: string };
  contact_email: string;
  saved_instruments: Map<string, PyValue>;
};
export type ChargeValue = PyModel & { kind: string; total: PyValue; instrument_ref: string };
export type TicketValue = PyModel & {
  guest_ref: string;
  service_mode: string;
  state: string;
  line_entries: (PyModel & { plate_ref: string; cost: PyValue })[];
  charges: ChargeValue[];
};
export type RestaurantDb = { menu_board: Map<string, PyValue>; patron_registry: Map<string, PyValue>; service_tickets: Map<string, PyValue> };
