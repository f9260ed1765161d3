// ToolScale railway's data model (tau2/domains/railway/data_model.py), field by field in its
// order, and the DirectTrain result model of its tools.py. A payment method and a train's status
// on a date are unions told apart by their literal `source` and `status`. Pure TypeScript.

import { t } from '../../model.ts';
import type { PyModel, PyValue } from '../../pyValues.ts';
import { database, opt, shape, withDefault } from '../common.ts';

const SERVICE = t.choice(['high_speed', 'express', 'regional']);
const Name = shape('Name', { first_name: t.str, last_name: t.str });
const Address = shape('Address', { address1: t.str, address2: opt(t.str), city: t.str, country: t.str, state: t.str, zip: t.str });
export const Passenger = shape('Passenger', { first_name: t.str, last_name: t.str, dob: t.str });
export const RailPayment = shape('RailPayment', { payment_id: t.str, amount: t.float });
const CardExtraInfo = shape('CardExtraInfo', { brand: t.str, last_four: t.str });
export const WalletExtraInfo = shape('WalletExtraInfo', { amount: t.int });
const CardPayment = shape('CardPayment', { source: t.choice(['card']), id: t.str, extra_info: t.model(CardExtraInfo) });
export const WalletPayment = shape('WalletPayment', { source: t.choice(['wallet']), id: t.str, extra_info: t.model(WalletExtraInfo) });
const OtherPayment = shape('OtherPayment', { source: t.choice(['other']), id: t.str, extra_info: t.dict(t.any) });
/** `Dict[str, PaymentMethodRail]`, whose repr an error message prints. */
export const PAYMENT_METHODS = t.dict(t.union(CardPayment, WalletPayment, OtherPayment));
const dateStatus = (name: string, status: string, platform = t.str) =>
  shape(name, { status: t.choice([status]), platform, actual_departure_time_local: opt(t.str), actual_arrival_time_local: opt(t.str) });
const Train = shape('Train', {
  origin: t.str,
  destination: t.str,
  train_number: t.str,
  train_name: t.str,
  service_type: SERVICE,
  scheduled_departure_time_local: t.str,
  scheduled_arrival_time_local: t.str,
  dates: t.dict(t.union(dateStatus('TrainDateStatusOnTime', 'on time'), dateStatus('TrainDateStatusDelayed', 'delayed'), dateStatus('TrainDateStatusCancelled', 'cancelled', t.optional(t.str)))),
});
export const TrainInfo = shape('TrainInfo', { train_number: t.str, date: t.str });
const Railcard = shape('Railcard', { type: t.str, number: t.str, expiry: t.str });
const RailUser = shape('RailUser', {
  user_id: t.str,
  name: t.model(Name),
  address: t.model(Address),
  email: t.str,
  dob: t.str,
  payment_methods: PAYMENT_METHODS,
  saved_passengers: t.list(t.model(Passenger)),
  membership: t.choice(['gold', 'silver', 'regular']),
  railcards: t.list(t.model(Railcard)),
  reservations: t.list(t.str),
});
export const ReservationTrainSegment = shape('ReservationTrainSegment', {
  origin: t.str,
  destination: t.str,
  train_number: t.str,
  date: t.str,
  coach: t.str,
  seat_numbers: t.list(t.str),
  price: t.int,
});
export const TrainReservation = shape('TrainReservation', {
  reservation_id: t.str,
  user_id: t.str,
  origin: t.str,
  destination: t.str,
  trip_type: t.choice(['one_way', 'round_trip', 'multi_city']),
  trains: t.list(t.model(ReservationTrainSegment)),
  passengers: t.list(t.model(Passenger)),
  payment_history: t.list(t.model(RailPayment)),
  created_at: t.str,
  total_bags: t.int,
  bikes: withDefault(t.int, () => 0),
  meal_preference: t.choice(['veg', 'non_veg', 'none']),
  insurance: t.choice(['yes', 'no']),
  pnr: t.str,
  status: t.choice(['confirmed', 'waitlisted', 'cancelled']),
});
export const TrainDbSchema = database('TrainDB', { trains: Train, users: RailUser, reservations: TrainReservation });
export const DirectTrain = shape('DirectTrain', {
  train_number: t.str,
  train_name: t.str,
  origin: t.str,
  destination: t.str,
  service_type: SERVICE,
  date: t.str,
  status: t.str,
  scheduled_departure_time_local: t.str,
  scheduled_arrival_time_local: t.str,
  platform: opt(t.str),
});

// The shapes the tools read and write (a model's dump form).
export type TrainValue = PyModel & {
  origin: string;
  destination: string;
  train_number: string;
  train_name: string;
  service_type: string;
  scheduled_departure_time_local: string;
  scheduled_arrival_time_local: string;
  dates: Map<string, PyValue>;
};
export type DateStatusValue = PyModel & { status: string; platform: PyValue };
export type PaymentMethodValue = PyModel & { source: string; extra_info: PyModel };
export type UserValue = PyModel & { membership: string; payment_methods: Map<string, PyValue>; reservations: PyValue[] };
export type ReservationValue = PyModel & {
  user_id: string;
  trains: (PyModel & { price: PyValue })[];
  passengers: PyValue[];
  payment_history: PyValue[];
  total_bags: PyValue;
  bikes: PyValue;
  pnr: string;
};
export type DirectTrainValue = PyModel & { destination: string; status: string; scheduled_arrival_time_local: string };
export type TrainDb = { trains: Map<string, PyValue>; users: Map<string, PyValue>; reservations: Map<string, PyValue> };
