// ToolScale travel's tools (tau2/domains/travel/tools.py), ported call for call with the same
// errors, results and quirks: a booking lives inside its traveler and is found by scanning them
// all; insurance costs 50 or 100 a traveler by its label ("standard", "premium"), any other label
// nothing; a cancellation may be repeated (refunds and freed slots again); a rooming or travelers
// update stores what it is given when that is no dict. New bookings are TAU001-TAU003, dated
// "2024-05-15". Pure TypeScript.

import { construct, deepCopy } from '../../model.ts';
import { valueError } from '../../pyErrors.ts';
import { arith, compare, contains, iterate, len, lookup, lower, negate, strip } from '../../pyOps.ts';
import { pyEquals, pyFloat, pyRound, pyStr, pyTruthy, type PyModel, type PyValue } from '../../pyValues.ts';
import { TableToolkit } from '../../tableSeed.ts';
import { fn, type ToolFunction } from '../../toolkit.ts';
import { type Args, asModel, asModels, asModelsOrGiven, attr, calculateTool, type Num, optional, transferTool } from '../common.ts';
import {
  Booking,
  BookingAddOn,
  BookingPayment,
  BookingTravelerInfo,
  RoomingInfo,
  type AgentValue,
  type BookingValue,
  type DepartureValue,
  type PackageValue,
  type TravelDb,
  type TravelerValue,
} from './model.ts';

const TODAY = '2024-05-15';

export class TravelAgencyTools extends TableToolkit<TravelDb> {
  readonly className = 'TravelAgencyTools';

  readonly #traveler = this.rowsOf<TravelerValue>('travelers', 'Traveler {id} not found');
  readonly #agent = this.rowsOf<AgentValue>('agents', 'Agent {id} not found');
  readonly #package = this.rowsOf<PackageValue>('packages', 'Package {id} not found');

  /** `_get_booking`: the traveler holding the booking, and its place in their bookings. */
  #bookingAt(id: PyValue): [string, number] {
    for (const [travelerId, traveler] of this.db.travelers) {
      const index = (traveler as TravelerValue).bookings.findIndex((b) => pyEquals(b.booking_id, id));
      if (index >= 0) return [travelerId, index];
    }
    throw valueError(`Booking ${pyStr(id)} not found`);
  }

  #booking(id: PyValue): BookingValue {
    const [travelerId, index] = this.#bookingAt(id);
    return (this.db.travelers.get(travelerId) as TravelerValue).bookings[index]!;
  }

  /** The booking and its traveler as this rollout's own. */
  #ownBooking(id: PyValue): { traveler: TravelerValue; booking: BookingValue } {
    const [travelerId, index] = this.#bookingAt(id);
    const traveler = this.own<TravelerValue>('travelers', travelerId);
    return { traveler, booking: traveler.bookings[index]! };
  }

  #departure(pkg: PackageValue, date: PyValue, required: PyValue): DepartureValue {
    const dep = lookup(pkg.departures, date) as DepartureValue | undefined;
    if (dep === undefined) throw valueError(`Package ${pkg.package_id} not offered on ${pyStr(date)}`);
    if (dep.status !== 'available') throw valueError(`Departure on ${pyStr(date)} for package ${pkg.package_id} is not available`);
    if (compare(dep.available_slots, required, '<')) throw valueError(`Not enough slots on ${pyStr(date)}. Needed ${pyStr(required)}, available ${pyStr(dep.available_slots)}`);
    return dep;
  }

  /** `_calc_total_price`: base price per person, add-ons, insurance by label, rounded to cents. */
  #totalPrice(basePrice: PyValue, travelers: number, addOns: PyValue[], insurance: PyValue): Num {
    let total = arith('*', basePrice, travelers);
    total = arith('+', total, addOns.reduce<Num>((sum, addOn) => arith('+', sum, attr(addOn, 'price')), 0));
    if (pyTruthy(insurance)) {
      const label = lower(strip(insurance));
      const perTraveler = label === 'standard' ? 50 : label === 'premium' ? 100 : 0;
      total = arith('+', total, perTraveler ? pyFloat(perTraveler * travelers) : pyFloat(0));
    }
    return pyRound(total, 2);
  }

  #adjustSlots(packageId: string, date: PyValue, delta: number): void {
    const pkg = this.own<PackageValue>('packages', packageId);
    const dep = lookup(pkg.departures, date) as DepartureValue | undefined;
    if (dep === undefined) return; // tools.py logs a warning and goes on
    dep.available_slots = arith('+', dep.available_slots, delta);
  }

  #assertPaymentMethod(traveler: TravelerValue, id: PyValue): void {
    if (lookup(traveler.payment_methods, id) === undefined) throw valueError(`Payment method ${pyStr(id)} not found for traveler`);
  }

  readonly functions: Readonly<Record<string, ToolFunction<TravelAgencyTools>>> = {
    get_traveler_details: fn(['traveler_id'], (kit, a) => kit.#traveler(a.traveler_id!), 'read'),
    get_agent_details: fn(['agent_id'], (kit, a) => kit.#agent(a.agent_id!), 'read'),
    get_package_details: fn(['package_id'], (kit, a) => kit.#package(a.package_id!), 'read'),
    get_booking_details: fn(['booking_id'], (kit, a) => kit.#booking(a.booking_id!), 'read'),
    search_packages: fn(['destination_city', 'destination_country', 'category', 'departure_date'].map(optional), (kit, a) => kit.#search(a), 'read'),
    list_all_destinations: fn([], (kit) => kit.#destinations(), 'read'),
    book_package: fn(
      ['traveler_id', 'package_id', 'departure_date', 'travelers', 'rooming', 'add_ons', 'insurance', 'payment_methods', optional('agent_id')],
      (kit, a) => kit.#book(a),
      'write',
    ),
    cancel_booking: fn(['booking_id'], (kit, a) => kit.#cancel(a.booking_id!), 'write'),
    update_booking_add_ons: fn(['booking_id', 'add_ons', 'payment_method_id'], (kit, a) => kit.#updateAddOns(a), 'write'),
    update_booking_departure_date: fn(['booking_id', 'new_departure_date', 'payment_method_id'], (kit, a) => kit.#updateDeparture(a), 'write'),
    update_booking_travelers: fn(['booking_id', 'travelers'], (kit, a) => kit.#updateTravelers(a), 'write'),
    update_booking_rooming: fn(['booking_id', 'rooming'], (kit, a) => kit.#updateRooming(a), 'write'),
    schedule_agent_meeting: fn(['agent_id', 'date', 'time_range', 'traveler_id'], (kit, a) => kit.#scheduleMeeting(a), 'write'),
    transfer_to_human_agents: transferTool,
    calculate: calculateTool,
  };

  #search(a: Args): PackageValue[] {
    return ([...this.db.packages.values()] as PackageValue[]).filter((pkg) => {
      if (pyTruthy(a.destination_city) || pyTruthy(a.destination_country)) {
        const match = pkg.destinations.some(
          (loc) => (a.destination_city === null || pyEquals(loc.city, a.destination_city!)) && (a.destination_country === null || pyEquals(loc.country, a.destination_country!)),
        );
        if (!match) return false;
      }
      if (pyTruthy(a.category) && !pyEquals(pkg.category, a.category!)) return false;
      if (pyTruthy(a.departure_date) && lookup(pkg.departures, a.departure_date!) === undefined) return false;
      return [...pkg.departures.values()].some((d) => (d as DepartureValue).status === 'available' && compare((d as DepartureValue).available_slots, 0, '>'));
    });
  }

  #destinations(): PyModel[] {
    const seen = new Set<string>();
    const result: PyModel[] = [];
    for (const pkg of this.db.packages.values()) {
      for (const loc of (pkg as PackageValue).destinations) {
        const key = JSON.stringify([loc.city, loc.country]);
        if (seen.has(key)) continue;
        seen.add(key);
        result.push(loc);
      }
    }
    return result;
  }

  #newBookingId(): string {
    const id = ['TAU001', 'TAU002', 'TAU003'].find((candidate) => ![...this.db.travelers.values()].some((tr) => (tr as TravelerValue).bookings.some((b) => b.booking_id === candidate)));
    if (id === undefined) throw valueError('Too many bookings created');
    return id;
  }

  #book(a: Args): BookingValue {
    const travelers = asModelsOrGiven(BookingTravelerInfo, a.travelers!);
    const rooming = asModel(RoomingInfo, a.rooming!);
    const addOns = asModelsOrGiven(BookingAddOn, a.add_ons!);
    const payments = asModels(BookingPayment, a.payment_methods!);
    const traveler = this.#traveler(a.traveler_id!);
    const pkg = this.#package(a.package_id!);
    let agentId = a.agent_id!;
    if (agentId === null) {
      if (pkg.managed_by_agents.length === 0) throw valueError('No managing agent available for this package');
      agentId = pkg.managed_by_agents[0]!;
    }
    this.#agent(agentId);
    const count = len(travelers);
    const departure = this.#departure(pkg, a.departure_date!, count);
    const total = this.#totalPrice(departure.base_price, count, iterate(addOns), a.insurance!);
    for (const p of payments) this.#assertPaymentMethod(traveler, attr(p, 'payment_id'));
    const paid = pyRound(payments.reduce<Num>((sum, p) => arith('+', sum, attr(p, 'amount')), 0), 2);
    if (!pyEquals(pyRound(total, 2), paid)) throw valueError(`Payment amount does not add up, total price is ${pyStr(total)}, but paid ${pyStr(paid)}`);
    const id = this.#newBookingId();
    const booking = construct<BookingValue>(Booking, {
      booking_id: id,
      package_id: a.package_id!,
      agent_id: agentId,
      booking_date: TODAY,
      departure_date: a.departure_date!,
      status: 'confirmed',
      travelers: deepCopy(travelers),
      rooming: deepCopy(rooming),
      add_ons: deepCopy(addOns),
      insurance: a.insurance!,
      payment_history: deepCopy(payments),
      total_price: total,
      notes: null,
    });
    this.own<TravelerValue>('travelers', a.traveler_id as string).bookings.push(booking);
    this.#adjustSlots(a.package_id as string, a.departure_date!, -count);
    const agent = this.own<AgentValue>('agents', agentId as string);
    if (!contains(agent.assigned_travelers, a.traveler_id!)) agent.assigned_travelers.push(a.traveler_id!);
    if (!contains(agent.bookings_handled, id)) agent.bookings_handled.push(id);
    return booking;
  }

  #cancel(id: PyValue): BookingValue {
    const found = this.#booking(id);
    this.#package(found.package_id);
    const { booking } = this.#ownBooking(id);
    booking.payment_history.push(...booking.payment_history.map((p) => construct<BookingValue['payment_history'][number]>(BookingPayment, { payment_id: p.payment_id, amount: negate(p.amount) })));
    booking.status = 'cancelled';
    this.#adjustSlots(booking.package_id, booking.departure_date, len(booking.travelers));
    return booking;
  }

  /** What a priced change starts with: the booking, its package, and the traveler's payment method. */
  #bookingToReprice(a: Args): { found: BookingValue; pkg: PackageValue } {
    const found = this.#booking(a.booking_id!);
    const [travelerId] = this.#bookingAt(a.booking_id!);
    const pkg = this.#package(found.package_id);
    this.#assertPaymentMethod(this.db.travelers.get(travelerId) as TravelerValue, a.payment_method_id!);
    return { found, pkg };
  }

  /** The booking as this rollout's own, with a payment (or a refund) of the difference if there is one. */
  #ownRepriced(a: Args, delta: Num): BookingValue {
    const { booking } = this.#ownBooking(a.booking_id!);
    if (!pyEquals(delta, 0)) booking.payment_history.push(construct(BookingPayment, { payment_id: a.payment_method_id!, amount: delta }) as BookingValue['payment_history'][number]);
    return booking;
  }

  #updateAddOns(a: Args): BookingValue {
    const { found, pkg } = this.#bookingToReprice(a);
    const addOns = asModelsOrGiven(BookingAddOn, a.add_ons!);
    const departure = this.#departure(pkg, found.departure_date, 0);
    const total = this.#totalPrice(departure.base_price, len(found.travelers), iterate(addOns), found.insurance);
    const booking = this.#ownRepriced(a, pyRound(arith('-', total, found.total_price), 2));
    booking.add_ons = deepCopy(addOns) as PyValue[];
    booking.total_price = total;
    return booking;
  }

  #updateDeparture(a: Args): BookingValue {
    const { found, pkg } = this.#bookingToReprice(a);
    const count = len(found.travelers);
    const departure = this.#departure(pkg, a.new_departure_date!, count);
    const total = this.#totalPrice(departure.base_price, count, found.add_ons, found.insurance);
    const delta = pyRound(arith('-', total, found.total_price), 2);
    this.#adjustSlots(found.package_id, found.departure_date, count);
    this.#adjustSlots(found.package_id, a.new_departure_date!, -count);
    const booking = this.#ownRepriced(a, delta);
    booking.departure_date = a.new_departure_date as string;
    booking.total_price = total;
    return booking;
  }

  #updateTravelers(a: Args): BookingValue {
    const found = this.#booking(a.booking_id!);
    const travelers = asModelsOrGiven(BookingTravelerInfo, a.travelers!);
    if (len(travelers) !== len(found.travelers)) throw valueError('Number of travelers does not match current booking');
    const { booking } = this.#ownBooking(a.booking_id!);
    booking.travelers = deepCopy(travelers) as PyValue[];
    return booking;
  }

  #updateRooming(a: Args): BookingValue {
    this.#booking(a.booking_id!);
    const rooming = asModel(RoomingInfo, a.rooming!);
    const { booking } = this.#ownBooking(a.booking_id!);
    booking.rooming = deepCopy(rooming);
    return booking;
  }

  #scheduleMeeting(a: Args): string {
    const agent = this.#agent(a.agent_id!);
    this.#traveler(a.traveler_id!);
    const day = lookup(agent.availability, a.date!) as { slots: PyValue[] } | undefined;
    if (day === undefined) throw valueError(`Agent is not available on ${pyStr(a.date)}`);
    const index = day.slots.findIndex((slot) => pyEquals(slot, a.time_range!));
    if (index < 0) throw valueError(`Time slot ${pyStr(a.time_range)} not available on ${pyStr(a.date)}`);
    const owned = this.own<AgentValue>('agents', a.agent_id as string);
    (owned.availability.get(a.date as string) as { slots: PyValue[] }).slots.splice(index, 1);
    return `Meeting scheduled with agent ${pyStr(a.agent_id)} on ${pyStr(a.date)} at ${pyStr(a.time_range)}`;
  }
}
