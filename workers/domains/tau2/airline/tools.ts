// τ²-Bench airline's tools (tau2/domains/airline/tools.py), ported call for call: the same checks
// in the same order, the same errors, the same results, and the same quirks. A new reservation is
// HATHAT, HATHAU or HATHAV (a fourth is "Too many reservations"), created "2024-05-15T15:00:00"; a
// certificate sent is certificate_3221322, …23 or …24; cancelling refunds every payment in the
// history (a second cancellation refunds the refunds) and frees no seat; changing flights takes no
// seat either, and stores the cabin and the counts of bags as given, unvalidated; a one-stop search
// looks for the second leg on `2024-05-{day + 1}` (unpadded) after an arrival marked "+1". Trusted
// code of ours, run natively, over a TableSeed (copy on write, ../tableSeed.ts). Pure TypeScript.

import { construct, deepCopy } from '../model.ts';
import { PyError, valueError } from '../pyErrors.ts';
import { arith, compare, getItem, iterate, len, lookup, pyInt } from '../pyOps.ts';
import { pyEquals, pyStr, type PyModel, type PyValue } from '../pyValues.ts';
import { TableToolkit } from '../tableSeed.ts';
import { fn, type ToolFunction } from '../toolkit.ts';
import { type Args, asModels, asModelsOrGiven, attr, calculateTool, cancelWithRefunds, type Num, transferTool } from '../toolscale/common.ts';
import {
  AirportCode,
  Certificate,
  DirectFlight,
  FlightInfo,
  Passenger,
  Payment,
  Reservation,
  ReservationFlight,
  type DateStatusValue,
  type DirectFlightValue,
  type FlightDb,
  type FlightValue,
  type PaymentMethodValue,
  type ReservationValue,
  type UserValue,
} from './model.ts';

const NOW = '2024-05-15T15:00:00';
const NEW_RESERVATION_IDS = ['HATHAT', 'HATHAU', 'HATHAV'];
const NEW_CERTIFICATE_IDS = [3221322, 3221323, 3221324].map((id) => `certificate_${id}`);
const AIRPORTS: [string, string][] = [
  ['SFO', 'San Francisco'], ['JFK', 'New York'], ['LAX', 'Los Angeles'], ['ORD', 'Chicago'], ['DFW', 'Dallas'],
  ['DEN', 'Denver'], ['SEA', 'Seattle'], ['ATL', 'Atlanta'], ['MIA', 'Miami'], ['BOS', 'Boston'],
  ['PHX', 'Phoenix'], ['IAH', 'Houston'], ['LAS', 'Las Vegas'], ['MCO', 'Orlando'], ['EWR', 'Newark'],
  ['CLT', 'Charlotte'], ['MSP', 'Minneapolis'], ['DTW', 'Detroit'], ['PHL', 'Philadelphia'], ['LGA', 'LaGuardia'],
];

/** `max(0, value)`: the value when it is greater than 0, else 0. */
const atLeastZero = (value: Num): Num => (compare(value, 0, '>') ? value : 0);

export class AirlineTools extends TableToolkit<FlightDb> {
  readonly className = 'AirlineTools';

  readonly #user = this.rowsOf<UserValue>('users', 'User {id} not found');
  readonly #reservation = this.rowsOf<ReservationValue>('reservations', 'Reservation {id} not found');
  readonly #flight = this.rowsOf<FlightValue>('flights', 'Flight {id} not found');

  #flightOn(number: PyValue, date: PyValue): DateStatusValue {
    const status = lookup(this.#flight(number).dates, date);
    if (status === undefined) throw valueError(`Flight ${pyStr(number)} not found on date ${pyStr(date)}`);
    return status as DateStatusValue;
  }

  readonly functions: Readonly<Record<string, ToolFunction<AirlineTools>>> = {
    book_reservation: fn(
      ['user_id', 'origin', 'destination', 'flight_type', 'cabin', 'flights', 'passengers', 'payment_methods', 'total_baggages', 'nonfree_baggages', 'insurance'],
      (kit, a) => kit.#book(a),
      'write',
    ),
    calculate: calculateTool,
    cancel_reservation: fn(['reservation_id'], (kit, a) => kit.#cancel(a.reservation_id!), 'write'),
    get_reservation_details: fn(['reservation_id'], (kit, a) => kit.#reservation(a.reservation_id!), 'read'),
    get_user_details: fn(['user_id'], (kit, a) => kit.#user(a.user_id!), 'read'),
    list_all_airports: fn([], () => AIRPORTS.map(([iata, city]) => construct(AirportCode, { iata, city })), 'read'),
    search_direct_flight: fn(['origin', 'destination', 'date'], (kit, a) => kit.#searchDirect(a.date!, a.origin!, a.destination!), 'read'),
    search_onestop_flight: fn(['origin', 'destination', 'date'], (kit, a) => kit.#searchOneStop(a), 'read'),
    send_certificate: fn(['user_id', 'amount'], (kit, a) => kit.#sendCertificate(a), 'write'),
    transfer_to_human_agents: transferTool,
    update_reservation_baggages: fn(['reservation_id', 'total_baggages', 'nonfree_baggages', 'payment_id'], (kit, a) => kit.#updateBaggages(a), 'write'),
    update_reservation_flights: fn(['reservation_id', 'cabin', 'flights', 'payment_id'], (kit, a) => kit.#updateFlights(a), 'write'),
    update_reservation_passengers: fn(['reservation_id', 'passengers'], (kit, a) => kit.#updatePassengers(a), 'write'),
    get_flight_status: fn(['flight_number', 'date'], (kit, a) => kit.#flightOn(a.flight_number!, a.date!).status, 'read'),
  };

  /** `_search_direct_flight`: the flights available on the date, in the database's order. */
  #searchDirect(date: PyValue, origin: PyValue, destination: PyValue, leaveAfter: PyValue = null): DirectFlightValue[] {
    const results: DirectFlightValue[] = [];
    for (const value of this.db.flights.values()) {
      const flight = value as FlightValue;
      if (origin !== null && !pyEquals(flight.origin, origin)) continue;
      if (destination !== null && !pyEquals(flight.destination, destination)) continue;
      const status = lookup(flight.dates, date) as DateStatusValue | undefined;
      if (status === undefined || status.status !== 'available') continue;
      if (leaveAfter !== null && !compare(flight.scheduled_departure_time_est, leaveAfter, '>=')) continue;
      results.push(
        construct<DirectFlightValue>(DirectFlight, {
          flight_number: flight.flight_number,
          origin: flight.origin,
          destination: flight.destination,
          status: 'available',
          scheduled_departure_time_est: flight.scheduled_departure_time_est,
          scheduled_arrival_time_est: flight.scheduled_arrival_time_est,
          available_seats: status.available_seats!,
          prices: status.prices!,
        }),
      );
    }
    return results;
  }

  #searchOneStop(a: Args): DirectFlightValue[][] {
    const pairs: DirectFlightValue[][] = [];
    for (const first of this.#searchDirect(a.date!, a.origin!, null)) {
      first.date = a.date!;
      // Only a date that is a key of the flight's dates (a str) gets here.
      const date = a.date as string;
      const next = first.scheduled_arrival_time_est.includes('+1') ? `2024-05-${pyInt([...date].slice(-2).join('')) + 1}` : date;
      for (const second of this.#searchDirect(next, first.destination, a.destination!, first.scheduled_arrival_time_est)) {
        second.date = next;
        pairs.push([first, second]);
      }
    }
    return pairs;
  }

  /** `_payment_for_update`: a certificate refused, a gift card charged (before the payment is
   * validated, as in Python), a payment record for a non-zero amount. */
  #paymentForUpdate(userId: string, paymentId: PyValue, total: Num): PyModel | null {
    const method = lookup(this.#user(userId).payment_methods, paymentId) as PaymentMethodValue | undefined;
    if (method === undefined) throw valueError('Payment method not found');
    if (method.source === 'certificate') throw valueError('Certificate cannot be used to update reservation');
    if (method.source === 'gift_card' && compare(method.amount!, total, '<')) throw valueError('Gift card balance is not enough');
    if (method.source === 'gift_card') {
      const card = this.own<UserValue>('users', userId).payment_methods.get(paymentId as string) as PaymentMethodValue;
      card.amount = arith('-', card.amount!, total);
    }
    return pyEquals(total, 0) ? null : construct(Payment, { payment_id: paymentId, amount: total });
  }

  #newReservationId(): string {
    const id = NEW_RESERVATION_IDS.find((candidate) => !this.db.reservations.has(candidate));
    if (id === undefined) throw valueError('Too many reservations');
    return id;
  }

  #book(a: Args): ReservationValue {
    const flights = asModels(FlightInfo, a.flights!);
    const passengers = asModelsOrGiven(Passenger, a.passengers!);
    const payments = asModelsOrGiven(Payment, a.payment_methods!);
    const user = this.#user(a.user_id!);
    const id = this.#newReservationId();
    const reservation = construct<ReservationValue>(Reservation, {
      reservation_id: id,
      user_id: a.user_id!,
      origin: a.origin!,
      destination: a.destination!,
      flight_type: a.flight_type!,
      cabin: a.cabin!,
      flights: [],
      passengers: deepCopy(passengers),
      payment_history: deepCopy(payments),
      created_at: NOW,
      total_baggages: a.total_baggages!,
      nonfree_baggages: a.nonfree_baggages!,
      insurance: a.insurance!,
    });
    const cabin = a.cabin as string;
    const pax = len(passengers);
    let total: Num = 0;
    const booked: [string, string][] = [];
    for (const info of flights) {
      const number = attr(info, 'flight_number');
      const flight = this.#flight(number);
      const status = this.#flightOn(number, attr(info, 'date'));
      if (status.status !== 'available') throw valueError(`Flight ${pyStr(number)} not available on date ${pyStr(attr(info, 'date'))}`);
      if (compare(getItem(status.available_seats!, cabin), pax, '<')) throw valueError(`Not enough seats on flight ${pyStr(number)}`);
      const price = getItem(status.prices!, cabin);
      reservation.flights.push(construct(ReservationFlight, { origin: flight.origin, destination: flight.destination, flight_number: number, date: attr(info, 'date'), price }) as ReservationValue['flights'][number]);
      booked.push([number as string, attr(info, 'date') as string]);
      total = arith('+', total, arith('*', price, pax));
    }
    if (pyEquals(a.insurance!, 'yes')) total = arith('+', total, 30 * pax);
    // `50 * nonfree_baggages` repeats a str in Python; adding that to the price then fails.
    if (typeof a.nonfree_baggages === 'string') throw new PyError('TypeError', `unsupported operand type(s) for +=: '${typeof total === 'number' ? 'int' : 'float'}' and 'str'`);
    total = arith('+', total, arith('*', 50, a.nonfree_baggages!));
    for (const payment of iterate(payments)) {
      const paymentId = attr(payment, 'payment_id');
      const method = lookup(user.payment_methods, paymentId) as PaymentMethodValue | undefined;
      if (method === undefined) throw valueError(`Payment method ${pyStr(paymentId)} not found`);
      if ((method.source === 'gift_card' || method.source === 'certificate') && compare(method.amount!, attr(payment, 'amount'), '<')) {
        throw valueError(`Not enough balance in payment method ${pyStr(paymentId)}`);
      }
    }
    const paid = iterate(payments).reduce<Num>((sum, p) => arith('+', sum, attr(p, 'amount')), 0);
    if (!pyEquals(paid, total)) throw valueError(`Payment amount does not add up, total price is ${pyStr(total)}, but paid ${pyStr(paid)}`);
    const owner = this.own<UserValue>('users', a.user_id as string);
    for (const payment of iterate(payments)) {
      const paymentId = attr(payment, 'payment_id') as string;
      const method = getItem(owner.payment_methods, paymentId) as PaymentMethodValue;
      if (method.source === 'gift_card') method.amount = arith('-', method.amount!, attr(payment, 'amount'));
      else if (method.source === 'certificate') owner.payment_methods.delete(paymentId);
    }
    for (const [number, date] of booked) {
      const seats = (this.own<FlightValue>('flights', number).dates.get(date) as DateStatusValue).available_seats!;
      seats.set(cabin, arith('-', seats.get(cabin)!, pax));
    }
    this.adopt('reservations', id, reservation);
    owner.reservations.push(id);
    return reservation;
  }

  #cancel(id: PyValue): ReservationValue {
    this.#reservation(id);
    return cancelWithRefunds(this.own<ReservationValue>('reservations', id as string), Payment);
  }

  #sendCertificate(a: Args): string {
    const user = this.#user(a.user_id!);
    const id = NEW_CERTIFICATE_IDS.find((candidate) => !user.payment_methods.has(candidate));
    if (id === undefined) throw valueError('Too many certificates');
    const certificate = construct(Certificate, { id, amount: a.amount!, source: 'certificate' });
    this.own<UserValue>('users', a.user_id as string).payment_methods.set(id, certificate);
    return `Certificate ${id} added to user ${pyStr(a.user_id!)} with amount ${pyStr(a.amount!)}.`;
  }

  #updateBaggages(a: Args): ReservationValue {
    const found = this.#reservation(a.reservation_id!);
    this.#user(found.user_id);
    const total = arith('*', 50, atLeastZero(arith('-', a.nonfree_baggages!, found.nonfree_baggages)));
    const payment = this.#paymentForUpdate(found.user_id, a.payment_id!, total);
    const reservation = this.own<ReservationValue>('reservations', a.reservation_id as string);
    if (payment !== null) reservation.payment_history.push(payment);
    reservation.total_baggages = a.total_baggages!;
    reservation.nonfree_baggages = a.nonfree_baggages!;
    return reservation;
  }

  #updateFlights(a: Args): ReservationValue {
    const flights = asModels(FlightInfo, a.flights!);
    const found = this.#reservation(a.reservation_id!);
    this.#user(found.user_id);
    const pax = found.passengers.length;
    let total: Num = 0;
    const legs: PyModel[] = [];
    for (const info of flights) {
      const kept = found.flights.find((f) => pyEquals(f.flight_number, attr(info, 'flight_number')) && pyEquals(f.date, attr(info, 'date')) && pyEquals(a.cabin!, found.cabin));
      if (kept) {
        total = arith('+', total, arith('*', kept.price, pax));
        legs.push(kept);
        continue;
      }
      const number = attr(info, 'flight_number');
      const flight = this.#flight(number);
      const status = this.#flightOn(number, attr(info, 'date'));
      if (status.status !== 'available') throw valueError(`Flight ${pyStr(number)} not available on date ${pyStr(attr(info, 'date'))}`);
      if (compare(getItem(status.available_seats!, a.cabin!), pax, '<')) throw valueError(`Not enough seats on flight ${pyStr(number)}`);
      const leg = construct(ReservationFlight, { flight_number: number, date: attr(info, 'date'), price: getItem(status.prices!, a.cabin!), origin: flight.origin, destination: flight.destination });
      total = arith('+', total, arith('*', leg.price!, pax));
      legs.push(leg);
    }
    total = arith('-', total, arith('*', found.flights.reduce<Num>((sum, f) => arith('+', sum, f.price), 0), pax));
    const payment = this.#paymentForUpdate(found.user_id, a.payment_id!, total);
    const reservation = this.own<ReservationValue>('reservations', a.reservation_id as string);
    if (payment !== null) reservation.payment_history.push(payment);
    reservation.flights = legs.map((leg) => (found.flights.includes(leg as ReservationValue['flights'][number]) ? deepCopy(leg) : leg)) as ReservationValue['flights'];
    reservation.cabin = a.cabin!;
    return reservation;
  }

  #updatePassengers(a: Args): ReservationValue {
    const passengers = asModelsOrGiven(Passenger, a.passengers!);
    const found = this.#reservation(a.reservation_id!);
    if (len(passengers) !== found.passengers.length) throw valueError('Number of passengers does not match');
    const reservation = this.own<ReservationValue>('reservations', a.reservation_id as string);
    reservation.passengers = deepCopy(passengers) as PyValue[];
    return reservation;
  }
}
