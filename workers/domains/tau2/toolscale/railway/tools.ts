// ToolScale railway's tools (tau2/domains/railway/tools.py), ported call for call with the same
// errors, results and quirks: fares come from a fixed table by service and class, discounted by
// membership and rounded to cents; a wallet pays whole dollars and is charged before the
// reservation is validated (a refused reservation still takes the money); an unknown payment
// method's error prints the user's methods as pydantic prints them; one-stop searches return pairs
// of trains (lists in JSON). New reservations are TRN001-TRN003 with PNRs PNR1AA, PNR2BB, PNR3CC,
// created "2024-05-15T15:00:00". Pure TypeScript.

import { construct, deepCopy, t } from '../../model.ts';
import { reprAs } from '../../modelRepr.ts';
import { valueError } from '../../pyErrors.ts';
import { arith, compare, getItem, len, lookup, negate, pyAbsolute, pyInt } from '../../pyOps.ts';
import { compareCodePoints, numberOf, pyEquals, pyFloat, pyRound, pyStr, type PyFloat, type PyModel, type PyValue } from '../../pyValues.ts';
import { TableToolkit } from '../../tableSeed.ts';
import { fn, type ToolFunction } from '../../toolkit.ts';
import { type Args, asModels, asModelsOrGiven, attr, calculateTool, type Num, transferTool } from '../common.ts';
import {
  DirectTrain,
  PAYMENT_METHODS,
  Passenger,
  RailPayment,
  ReservationTrainSegment,
  TrainInfo,
  TrainReservation,
  WalletExtraInfo,
  WalletPayment,
  type DateStatusValue,
  type DirectTrainValue,
  type PaymentMethodValue,
  type ReservationValue,
  type TrainDb,
  type TrainValue,
  type UserValue,
} from './model.ts';

const CREATED_AT = '2024-05-15T15:00:00';
const FARES = new Map<string, PyValue>([
  ['high_speed', new Map<string, PyValue>([['sleeper', 120], ['ac_2_tier', 90], ['first_class', 150]])],
  ['express', new Map<string, PyValue>([['sleeper', 80], ['ac_2_tier', 65], ['first_class', 110]])],
  ['regional', new Map<string, PyValue>([['sleeper', 50], ['ac_2_tier', 40], ['first_class', 75]])],
]);
const COACHES = new Map<string, PyValue>([['sleeper', 'S1'], ['ac_2_tier', 'A1'], ['first_class', 'FC1']]);
const DISCOUNTS: Record<string, number> = { gold: 0.1, silver: 0.05, regular: 0 };

/** `max(0, value)`. */
const atLeastZero = (value: Num): Num => (compare(value, 0, '>') ? value : 0);

/** `abs(x - int(x)) > 1e-9`: not a whole number of dollars. */
const notWhole = (x: PyValue): boolean => compare(pyAbsolute(arith('-', x, pyInt(x))), 1e-9, '>');

export class RailwayTools extends TableToolkit<TrainDb> {
  readonly className = 'RailwayTools';

  readonly #user = this.rowsOf<UserValue>('users', 'User {id} not found');
  readonly #reservation = this.rowsOf<ReservationValue>('reservations', 'Reservation {id} not found');
  readonly #train = this.rowsOf<TrainValue>('trains', 'Train {id} not found');

  #trainOn(number: PyValue, date: PyValue): DateStatusValue {
    const status = lookup(this.#train(number).dates, date);
    if (status === undefined) throw valueError(`Train ${pyStr(number)} not found on date ${pyStr(date)}`);
    return status as DateStatusValue;
  }

  /** `_apply_membership_discount`: `round(amount * (1 - rate), 2)`. */
  #discounted(amount: PyValue, user: UserValue): Num {
    return pyRound(arith('*', amount, pyFloat(1 - (DISCOUNTS[user.membership] ?? 0))), 2);
  }

  /** The segments of an itinerary and its fare before discount, with the checks both booking and rebooking make. */
  #itinerary(trains: PyModel[], travelClass: PyValue, passengers: number): { segments: PyModel[]; fare: Num } {
    const segments: PyModel[] = [];
    let fare: Num = 0;
    for (const info of trains) {
      const number = attr(info, 'train_number');
      const train = this.#train(number);
      const date = attr(info, 'date');
      if (this.#trainOn(number, date).status === 'cancelled') throw valueError(`Train ${pyStr(number)} is cancelled on ${pyStr(date)}`);
      const price = getItem(getItem(FARES, train.service_type) as Map<string, PyValue>, travelClass);
      fare = arith('+', fare, arith('*', price, passengers));
      segments.push(
        construct(ReservationTrainSegment, {
          origin: train.origin,
          destination: train.destination,
          train_number: number,
          date,
          coach: getItem(COACHES, travelClass),
          seat_numbers: Array.from({ length: passengers }, (_, i) => String(21 + i)),
          price,
        }),
      );
    }
    return { segments, fare };
  }

  /** `_payment_for_update`: charges a wallet for a positive amount; a payment record for any non-zero one. */
  #paymentForUpdate(userId: string, paymentId: PyValue, total: PyFloat): PyModel | null {
    const user = this.#user(userId);
    const method = lookup(user.payment_methods, paymentId) as PaymentMethodValue | undefined;
    if (method === undefined) throw valueError(`Payment method not found: ${pyStr(paymentId)}, ${reprAs(PAYMENT_METHODS, user.payment_methods)}`);
    if (total.value > 0 && method.source === 'wallet') {
      if (notWhole(total)) throw valueError('Wallet payments must be whole dollars');
      if (compare(method.extra_info.amount!, pyInt(total), '<')) throw valueError('Wallet balance is not enough');
      const wallet = this.#ownMethod(userId, paymentId as string);
      wallet.extra_info.amount = arith('-', wallet.extra_info.amount!, pyInt(total));
    }
    return Math.abs(total.value) > 1e-9 ? construct(RailPayment, { payment_id: paymentId, amount: pyRound(total, 2) }) : null;
  }

  #ownMethod(userId: string, paymentId: string): PaymentMethodValue {
    return this.own<UserValue>('users', userId).payment_methods.get(paymentId) as PaymentMethodValue;
  }

  #searchDirect(date: PyValue, origin: PyValue, destination: PyValue, leaveAfter: PyValue = null): DirectTrainValue[] {
    const results: DirectTrainValue[] = [];
    for (const value of this.db.trains.values()) {
      const train = value as TrainValue;
      const status = lookup(train.dates, date) as DateStatusValue | undefined;
      if (status === undefined) continue;
      if (origin !== null && !pyEquals(train.origin, origin)) continue;
      if (destination !== null && !pyEquals(train.destination, destination)) continue;
      if (leaveAfter !== null && compare(train.scheduled_departure_time_local, leaveAfter, '<')) continue;
      results.push(
        construct<DirectTrainValue>(DirectTrain, {
          train_number: train.train_number,
          train_name: train.train_name,
          origin: train.origin,
          destination: train.destination,
          service_type: train.service_type,
          date,
          status: status.status,
          scheduled_departure_time_local: train.scheduled_departure_time_local,
          scheduled_arrival_time_local: train.scheduled_arrival_time_local,
          platform: status.status === 'cancelled' ? null : status.platform,
        }),
      );
    }
    return results;
  }

  readonly functions: Readonly<Record<string, ToolFunction<RailwayTools>>> = {
    get_user_details: fn(['user_id'], (kit, a) => kit.#user(a.user_id!), 'read'),
    get_reservation_details: fn(['reservation_id'], (kit, a) => kit.#reservation(a.reservation_id!), 'read'),
    search_direct_train: fn(['origin', 'destination', 'date'], (kit, a) => kit.#searchDirect(a.date!, a.origin!, a.destination!), 'read'),
    search_onestop_train: fn(['origin', 'destination', 'date'], (kit, a) => kit.#searchOneStop(a), 'read'),
    book_train_reservation: fn(
      ['user_id', 'origin', 'destination', 'trip_type', 'travel_class', 'trains', 'passengers', 'payment_methods', 'total_bags', 'bikes', 'meal_preference', 'insurance'],
      (kit, a) => kit.#book(a),
      'write',
    ),
    cancel_reservation: fn(['reservation_id'], (kit, a) => kit.#cancel(a.reservation_id!), 'write'),
    update_reservation_bags: fn(['reservation_id', 'total_bags', 'payment_id'], (kit, a) => kit.#updateBags(a), 'write'),
    update_reservation_bikes: fn(['reservation_id', 'bikes', 'payment_id'], (kit, a) => kit.#updateBikes(a), 'write'),
    update_reservation_trains: fn(['reservation_id', 'travel_class', 'trains', 'payment_id'], (kit, a) => kit.#updateTrains(a), 'write'),
    update_reservation_passengers: fn(['reservation_id', 'passengers'], (kit, a) => kit.#updatePassengers(a), 'write'),
    get_train_status: fn(['train_number', 'date'], (kit, a) => kit.#trainOn(a.train_number!, a.date!).status, 'read'),
    list_all_routes: fn([], (kit) => kit.#routes(), 'read'),
    calculate: calculateTool,
    transfer_to_human_agents: transferTool,
    add_wallet_funds: fn(['user_id', 'amount'], (kit, a) => kit.#addWalletFunds(a), 'write'),
    get_db_statistics: fn([], (kit) => kit.#statistics(), 'read'),
  };

  #searchOneStop(a: Args): DirectTrainValue[][] {
    const pairs: DirectTrainValue[][] = [];
    for (const first of this.#searchDirect(a.date!, a.origin!, null)) {
      if (first.status === 'cancelled') continue;
      for (const second of this.#searchDirect(a.date!, first.destination, a.destination!, first.scheduled_arrival_time_local)) {
        if (second.status !== 'cancelled') pairs.push([first, second]);
      }
    }
    return pairs;
  }

  #newReservationId(): string {
    const id = ['TRN001', 'TRN002', 'TRN003'].find((candidate) => !this.db.reservations.has(candidate));
    if (id === undefined) throw valueError('Too many reservations');
    return id;
  }

  #newPnr(): string {
    const used = new Set([...this.db.reservations.values()].map((r) => (r as ReservationValue).pnr));
    const pnr = ['PNR1AA', 'PNR2BB', 'PNR3CC'].find((candidate) => !used.has(candidate));
    if (pnr === undefined) throw valueError('Too many PNRs');
    return pnr;
  }

  #book(a: Args): ReservationValue {
    const trains = asModels(TrainInfo, a.trains!);
    const passengers = asModels(Passenger, a.passengers!);
    const payments = asModels(RailPayment, a.payment_methods!);
    const user = this.#user(a.user_id!);
    const id = this.#newReservationId();
    const pnr = this.#newPnr();
    const pax = len(a.passengers!);
    const { segments, fare } = this.#itinerary(trains, a.travel_class!, pax);
    const discounted = this.#discounted(fare, user);
    const insuranceFee = pyEquals(a.insurance!, 'yes') ? 20 * pax : 0;
    const bagsFee = arith('*', 15, atLeastZero(arith('-', a.total_bags!, pax)));
    // `10 * bikes` repeats a str or a list in Python; adding that to the fare then fails.
    const bikesFee = typeof a.bikes === 'string' || Array.isArray(a.bikes) ? a.bikes : arith('*', 10, a.bikes!);
    const total = pyRound(arith('+', arith('+', arith('+', discounted, insuranceFee), bagsFee), bikesFee), 2);
    for (const pay of payments) {
      const payId = attr(pay, 'payment_id');
      const method = lookup(user.payment_methods, payId) as PaymentMethodValue | undefined;
      if (method === undefined) throw valueError(`Payment method ${pyStr(payId)} not found`);
      if (method.source === 'wallet') {
        if (notWhole(pay.amount!)) throw valueError('Wallet payments must be in whole dollars');
        if (compare(method.extra_info.amount!, pyInt(pay.amount!), '<')) throw valueError(`Not enough balance in wallet ${pyStr(payId)}`);
      }
    }
    const paid = pyRound(payments.reduce<Num>((sum, p) => arith('+', sum, attr(p, 'amount')), 0), 2);
    if (compare(pyAbsolute(arith('-', paid, total)), 1e-9, '>')) {
      throw valueError(`Payment amount does not add up, total price is ${pyStr(total)}, but paid ${pyStr(paid)}, ${reprAs(t.list(t.model(RailPayment)), payments)}`);
    }
    for (const pay of payments) {
      const method = user.payment_methods.get(pay.payment_id as string) as PaymentMethodValue;
      if (method.source !== 'wallet') continue;
      const wallet = this.#ownMethod(a.user_id as string, pay.payment_id as string);
      wallet.extra_info.amount = arith('-', wallet.extra_info.amount!, pyInt(pay.amount!));
    }
    const reservation = construct<ReservationValue>(TrainReservation, {
      reservation_id: id,
      user_id: a.user_id!,
      origin: a.origin!,
      destination: a.destination!,
      trip_type: a.trip_type!,
      trains: segments,
      passengers: deepCopy(passengers),
      payment_history: deepCopy(payments),
      created_at: CREATED_AT,
      total_bags: a.total_bags!,
      bikes: a.bikes!,
      meal_preference: a.meal_preference!,
      insurance: a.insurance!,
      pnr,
      status: 'confirmed',
    });
    this.adopt('reservations', id, reservation);
    this.own<UserValue>('users', a.user_id as string).reservations.push(id);
    return reservation;
  }

  #cancel(id: PyValue): ReservationValue {
    this.#reservation(id);
    const reservation = this.own<ReservationValue>('reservations', id as string);
    const refunds = reservation.payment_history.map((p) => construct(RailPayment, { payment_id: (p as PyModel).payment_id!, amount: negate((p as PyModel).amount!) }));
    reservation.payment_history.push(...refunds);
    reservation.status = 'cancelled';
    return reservation;
  }

  /** The bags and bikes updates: a fee difference charged or refunded, then the new count stored. */
  #updateCount(a: Args, field: 'total_bags' | 'bikes', delta: (r: ReservationValue) => Num): ReservationValue {
    const found = this.#reservation(a.reservation_id!);
    this.#user(found.user_id);
    const payment = this.#paymentForUpdate(found.user_id, a.payment_id!, pyFloat(numberOf(delta(found))!));
    const reservation = this.own<ReservationValue>('reservations', a.reservation_id as string);
    if (payment !== null) reservation.payment_history.push(payment);
    reservation[field] = a[field]!;
    return reservation;
  }

  #updateBags(a: Args): ReservationValue {
    return this.#updateCount(a, 'total_bags', (r) => {
      const included = r.passengers.length;
      const previous = atLeastZero(arith('-', r.total_bags, included));
      const next = atLeastZero(arith('-', a.total_bags!, included));
      return arith('*', 15, arith('-', next, previous));
    });
  }

  #updateBikes(a: Args): ReservationValue {
    return this.#updateCount(a, 'bikes', (r) => arith('*', 10, arith('-', a.bikes!, r.bikes)));
  }

  #updateTrains(a: Args): ReservationValue {
    const trains = asModels(TrainInfo, a.trains!);
    const found = this.#reservation(a.reservation_id!);
    const user = this.#user(found.user_id);
    const pax = found.passengers.length;
    const { segments, fare } = this.#itinerary(trains, a.travel_class!, pax);
    const oldFare = arith('*', found.trains.reduce<Num>((sum, seg) => arith('+', sum, seg.price!), 0), pax);
    const diff = this.#discounted(arith('-', fare, oldFare), user);
    const payment = this.#paymentForUpdate(found.user_id, a.payment_id!, pyFloat(numberOf(diff)!));
    const reservation = this.own<ReservationValue>('reservations', a.reservation_id as string);
    if (payment !== null) reservation.payment_history.push(payment);
    reservation.trains = segments as ReservationValue['trains'];
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

  #routes(): PyValue[][] {
    const routes = new Map<string, [string, string]>();
    for (const value of this.db.trains.values()) {
      const { origin, destination } = value as TrainValue;
      routes.set(JSON.stringify([origin, destination]), [origin, destination]);
    }
    return [...routes.values()].sort(([o1, d1], [o2, d2]) => compareCodePoints(o1, o2) || compareCodePoints(d1, d2));
  }

  #addWalletFunds(a: Args): string {
    const amount = a.amount!;
    if (!(typeof amount === 'number' || typeof amount === 'boolean') || compare(amount, 0, '<=')) throw valueError('Amount must be a positive integer (whole dollars)');
    const user = this.#user(a.user_id!);
    let walletId = [...user.payment_methods].find(([, m]) => (m as PaymentMethodValue).source === 'wallet')?.[0];
    if (walletId === undefined) {
      walletId = ['wallet_1001', 'wallet_1002', 'wallet_1003'].find((id) => !user.payment_methods.has(id));
      if (walletId === undefined) throw valueError('Too many wallets');
      const wallet = construct(WalletPayment, { source: 'wallet', id: walletId, extra_info: construct(WalletExtraInfo, { amount: 0 }) });
      this.own<UserValue>('users', a.user_id as string).payment_methods.set(walletId, wallet);
    }
    const wallet = this.#ownMethod(a.user_id as string, walletId);
    wallet.extra_info.amount = arith('+', wallet.extra_info.amount!, amount);
    return `Wallet ${walletId} funded with $${pyStr(amount)}. New balance: $${pyStr(wallet.extra_info.amount)}`;
  }

  #statistics(): Map<string, PyValue> {
    const instances = [...this.db.trains.values()].reduce<number>((sum, tr) => sum + (tr as TrainValue).dates.size, 0);
    return new Map<string, PyValue>([
      ['num_trains', this.db.trains.size],
      ['num_train_instances', instances],
      ['num_users', this.db.users.size],
      ['num_reservations', this.db.reservations.size],
    ]);
  }
}

