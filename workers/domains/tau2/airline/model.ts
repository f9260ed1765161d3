// τ²-Bench airline's data model (tau2/domains/airline/data_model.py), field by field in its order,
// and the DirectFlight and AirportCode results of its tools.py. A payment method and a flight's
// status on a date are unions told apart by their literal `source` and `status`. Pure TypeScript.

import { t } from '../model.ts';
import type { PyModel, PyValue } from '../pyValues.ts';
import { database, opt, shape } from '../toolscale/common.ts';

const CABIN = t.choice(['business', 'economy', 'basic_economy']);
export const AirportCode = shape('AirportCode', { iata: t.str, city: t.str });
const Name = shape('Name', { first_name: t.str, last_name: t.str });
const Address = shape('Address', { address1: t.str, address2: opt(t.str), city: t.str, country: t.str, state: t.str, zip: t.str });
export const Payment = shape('Payment', { payment_id: t.str, amount: t.int });
const CreditCard = shape('CreditCard', { source: t.choice(['credit_card']), id: t.str, brand: t.str, last_four: t.str });
/** GiftCard redeclares `id` after `amount`; pydantic keeps the inherited field's place. */
const GiftCard = shape('GiftCard', { source: t.choice(['gift_card']), id: t.str, amount: t.float });
export const Certificate = shape('Certificate', { source: t.choice(['certificate']), id: t.str, amount: t.float });
export const Passenger = shape('Passenger', { first_name: t.str, last_name: t.str, dob: t.str });
const seatsAndPrices = { available_seats: t.dict(t.int), prices: t.dict(t.int) };
const times = (a: string, b: string) => ({ [a]: t.str, [b]: t.str });
const FlightDateStatus = t.union(
  shape('FlightDateStatusAvailable', { status: t.choice(['available']), ...seatsAndPrices }),
  shape('FlightDateStatusLanded', { status: t.choice(['landed']), ...times('actual_departure_time_est', 'actual_arrival_time_est') }),
  shape('FlightDateStatusCancelled', { status: t.choice(['cancelled']) }),
  shape('FlightDateStatusDelayed', { status: t.choice(['delayed']), ...times('estimated_departure_time_est', 'estimated_arrival_time_est') }),
  shape('FlightDataStatusFlying', { status: t.choice(['flying']), ...times('actual_departure_time_est', 'estimated_arrival_time_est') }),
  shape('FlightDataStatusOnTime', { status: t.choice(['on time']), ...times('estimated_departure_time_est', 'estimated_arrival_time_est') }),
);
const Flight = shape('Flight', {
  flight_number: t.str,
  origin: t.str,
  destination: t.str,
  scheduled_departure_time_est: t.str,
  scheduled_arrival_time_est: t.str,
  dates: t.dict(FlightDateStatus),
});
export const DirectFlight = shape('DirectFlight', {
  flight_number: t.str,
  origin: t.str,
  destination: t.str,
  status: t.choice(['available']),
  scheduled_departure_time_est: t.str,
  scheduled_arrival_time_est: t.str,
  date: opt(t.str),
  ...seatsAndPrices,
});
export const ReservationFlight = shape('ReservationFlight', { flight_number: t.str, origin: t.str, destination: t.str, date: t.str, price: t.int });
export const FlightInfo = shape('FlightInfo', { flight_number: t.str, date: t.str });
const User = shape('User', {
  user_id: t.str,
  name: t.model(Name),
  address: t.model(Address),
  email: t.str,
  dob: t.str,
  payment_methods: t.dict(t.union(CreditCard, GiftCard, Certificate)),
  saved_passengers: t.list(t.model(Passenger)),
  membership: t.choice(['gold', 'silver', 'regular']),
  reservations: t.list(t.str),
});
export const Reservation = shape('Reservation', {
  reservation_id: t.str,
  user_id: t.str,
  origin: t.str,
  destination: t.str,
  flight_type: t.choice(['round_trip', 'one_way']),
  cabin: CABIN,
  flights: t.list(t.model(ReservationFlight)),
  passengers: t.list(t.model(Passenger)),
  payment_history: t.list(t.model(Payment)),
  created_at: t.str,
  total_baggages: t.int,
  nonfree_baggages: t.int,
  insurance: t.choice(['yes', 'no']),
  status: opt(t.choice(['cancelled'])),
});
export const FlightDbSchema = database('FlightDB', { flights: Flight, users: User, reservations: Reservation });

// The shapes the tools work with (a model's dump form; pyValues.ts).
export type PaymentMethodValue = PyModel & { source: 'credit_card' | 'gift_card' | 'certificate'; id: string; amount?: PyValue };
export type DateStatusValue = PyModel & { status: string; available_seats?: Map<string, PyValue>; prices?: Map<string, PyValue> };
export type FlightValue = PyModel & {
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  dates: Map<string, PyValue>;
};
export type DirectFlightValue = PyModel & { destination: string; scheduled_arrival_time_est: string; date: PyValue };
export type ReservationFlightValue = PyModel & { flight_number: string; date: string; price: PyValue };
export type UserValue = PyModel & { user_id: string; payment_methods: Map<string, PyValue>; reservations: string[] };
export type ReservationValue = PyModel & {
  reservation_id: string;
  user_id: string;
  cabin: PyValue;
  flights: ReservationFlightValue[];
  passengers: PyValue[];
  payment_history: PyModel[];
  nonfree_baggages: PyValue;
  status: PyValue;
};
export type FlightDb = { flights: Map<string, PyValue>; users: Map<string, PyValue>; reservations: Map<string, PyValue> };
