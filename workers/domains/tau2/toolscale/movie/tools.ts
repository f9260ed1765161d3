// ToolScale movie's tools (tau2/domains/movie/tools.py), ported call for call with the same
// errors, results and quirks: seats and concessions arrive as dicts read key by key (a missing
// key is a KeyError, a seat listed twice is charged twice but counted once for availability);
// totals start from an int, so an empty booking's subtotal is `0`, not `0.0`; a price preview is a
// dict, so τ² renders its numbers as strings; a cancellation refunds as "cash". New bookings are
// BKG001-BKG003, timestamps a fixed "24-05-15-15-00". Pure TypeScript.

import { construct, deepCopy } from '../../model.ts';
import { typeError, valueError } from '../../pyErrors.ts';
import { arith, compare, iterate, lookup, negate, pyFloatOf, pyInt, sorted, subscript } from '../../pyOps.ts';
import { numberOf, pyEquals, pyFloat, pyRepr, pyRound, pyStr, pyTruthy, pyTypeName, type PyValue } from '../../pyValues.ts';
import { TableToolkit } from '../../tableSeed.ts';
import { fn, type ToolFunction } from '../../toolkit.ts';
import { type Args, asModel, asModels, attr, calculateTool, type Num, optional, transferTool } from '../common.ts';
import {
  BookedSeat,
  Booking,
  BookingPayment,
  BookingPaymentMethod,
  BookingTotals,
  ConcessionItem,
  Customer,
  Delivery,
  TicketDeliveryItem,
  type AuditoriumValue,
  type BookingValue,
  type ConcessionValue,
  type MovieDb,
  type SeatValue,
  type ShowValue,
  type TheaterValue,
} from './model.ts';

const NOW = '24-05-15-15-00';

/** A Python set of seat ids: its members by value (an unhashable id raises as in Python). */
class IdSet {
  readonly #members = new Map<string, PyValue>();

  constructor(values: Iterable<PyValue> = []) {
    for (const value of values) this.add(value);
  }

  static #key(value: PyValue): string {
    if (Array.isArray(value) || value instanceof Map) throw typeError(`unhashable type: '${pyTypeName(value)}'`);
    const n = typeof value === 'boolean' ? Number(value) : numberOf(value);
    return n !== undefined ? `n:${n}` : `${typeof value}:${String(value)}`;
  }

  add(value: PyValue): void {
    this.#members.set(IdSet.#key(value), value);
  }

  has(value: PyValue): boolean {
    return this.#members.has(IdSet.#key(value));
  }

  values(): PyValue[] {
    return [...this.#members.values()];
  }

  minus(other: IdSet): IdSet {
    return new IdSet(this.values().filter((v) => !other.has(v)));
  }

  and(other: IdSet): IdSet {
    return new IdSet(this.values().filter((v) => other.has(v)));
  }

  /** `sorted(list(self))`, as the error messages print it. */
  toString(): string {
    return pyRepr(sorted(this.values()));
  }
}

/** `round(sum(values), 2)`: Python's sum starts from the int 0. */
const roundedSum = (values: PyValue[]): Num => pyRound(values.reduce<Num>((sum, v) => arith('+', sum, v), 0), 2);

export class MovieTheaterTools extends TableToolkit<MovieDb> {
  readonly className = 'MovieTheaterTools';

  readonly #theater = this.rowsOf<TheaterValue>('theaters', 'Theater {id} not found');
  readonly #booking = this.rowsOf<BookingValue>('bookings', 'Booking {id} not found');

  /** `_get_show`: the show and the date it is listed under. */
  #show(theaterId: PyValue, showId: PyValue, date: PyValue = null): [ShowValue, string] {
    const theater = this.#theater(theaterId);
    if (date !== null) {
      const day = lookup(theater.dates, date);
      if (day === undefined) throw valueError(`No schedule for date ${pyStr(date)} at theater ${pyStr(theaterId)}`);
      const show = ((day as { shows: ShowValue[] }).shows).find((s) => pyEquals(s.show_id, showId));
      if (show === undefined) throw valueError(`Show ${pyStr(showId)} not found on date ${pyStr(date)} at theater ${pyStr(theaterId)}`);
      return [show, date as string];
    }
    for (const [d, day] of theater.dates) {
      const show = (day as { shows: ShowValue[] }).shows.find((s) => pyEquals(s.show_id, showId));
      if (show !== undefined) return [show, d];
    }
    throw valueError(`Show ${pyStr(showId)} not found at theater ${pyStr(theaterId)}`);
  }

  #auditorium(theater: TheaterValue, id: string): AuditoriumValue {
    const auditorium = theater.auditoriums.get(id);
    if (auditorium === undefined) throw valueError(`Auditorium ${id} not found at theater ${theater.theater_id}`);
    return auditorium as AuditoriumValue;
  }

  #allSeats(auditorium: AuditoriumValue): IdSet {
    return new IdSet([...auditorium.seat_map.rows.values()].flatMap((seats) => (seats as { seat_id: string }[]).map((s) => s.seat_id)));
  }

  /** Seats of the show's confirmed bookings. */
  #bookedSeats(theaterId: PyValue, showId: PyValue): IdSet {
    const ids = new IdSet();
    for (const value of this.db.bookings.values()) {
      const b = value as BookingValue;
      if (pyEquals(b.theater_id, theaterId) && pyEquals(b.show_id, showId) && b.status === 'confirmed') for (const s of b.seats) ids.add(s.seat_id);
    }
    return ids;
  }

  /** The checks a new booking or a price preview makes: a bookable show, seats that exist and are free. */
  #checkRequest(theaterId: PyValue, showId: PyValue, seats: PyValue): { theater: TheaterValue; show: ShowValue; date: string } {
    const theater = this.#theater(theaterId);
    const [show, date] = this.#show(theaterId, showId);
    if (show.status !== 'scheduled') throw valueError(`Show ${pyStr(showId)} is not available for booking (status=${show.status})`);
    const auditorium = this.#auditorium(theater, show.auditorium_id);
    const requested = new IdSet(iterate(seats).map((s) => subscript(s, 'seat_id')));
    this.#assertSeatsExist(auditorium, requested);
    const conflict = requested.and(this.#bookedSeats(theaterId, showId));
    if (conflict.values().length) throw valueError(`Seats not available: ${conflict}`);
    return { theater, show, date };
  }

  #assertSeatsExist(auditorium: AuditoriumValue, requested: IdSet): void {
    const missing = requested.minus(this.#allSeats(auditorium));
    if (missing.values().length) throw valueError(`Unknown seat ids: ${missing}`);
  }

  /** `_build_booked_seats`: each seat priced by its ticket type, with the show's fee and the theater's tax. */
  #buildSeats(show: ShowValue, theater: TheaterValue, specs: PyValue): SeatValue[] {
    const taxRate = pyFloat(pyFloatOf(theater.pricing_rules.tax_rate_percent).value / 100);
    const fee = pyFloatOf(show.price_schema.fees.convenience_fee);
    return iterate(specs).map((spec) => {
      const seatId = subscript(spec, 'seat_id');
      const type = subscript(spec, 'ticket_type');
      const prices: Record<string, PyValue> = show.price_schema;
      if (!(typeof type === 'string' && ['adult', 'child', 'senior'].includes(type))) throw valueError(`Unsupported ticket type ${pyStr(type)}`);
      const price = pyFloatOf(prices[type]!);
      const tax = arith('*', arith('+', price, fee), taxRate);
      return construct<SeatValue>(BookedSeat, { seat_id: seatId, ticket_type: type, price: pyRound(price, 2), convenience_fee: pyRound(fee, 2), tax: pyRound(tax, 2) });
    });
  }

  /** `_compute_concession_lines`: each line's tax and total at the theater's tax rate. */
  #concessionLines(theater: TheaterValue, concessions: PyValue): ConcessionValue[] {
    const taxRate = pyFloat(pyFloatOf(theater.pricing_rules.tax_rate_percent).value / 100);
    return iterate(concessions).map((c) => {
      const quantity = pyInt(subscript(c, 'quantity'));
      const priceEach = pyFloatOf(subscript(c, 'price_each'));
      const taxEach = arith('*', priceEach, taxRate);
      const total = arith('*', quantity, arith('+', priceEach, taxEach));
      return construct<ConcessionValue>(ConcessionItem, {
        item_id: subscript(c, 'item_id'),
        name: subscript(c, 'name'),
        size: subscript(c, 'size'),
        quantity,
        price_each: pyRound(priceEach, 2),
        tax_each: pyRound(taxEach, 2),
        total: pyRound(total, 2),
      });
    });
  }

  /** `_sum_concessions_subtotal_and_tax`: both sums start from 0.0. */
  #concessionSums(items: ConcessionValue[]): [Num, Num] {
    let subtotal: Num = pyFloat(0);
    let tax: Num = pyFloat(0);
    for (const item of items) {
      subtotal = arith('+', subtotal, arith('*', item.price_each, item.quantity));
      tax = arith('+', tax, arith('*', item.tax_each, item.quantity));
    }
    return [pyRound(subtotal, 2), pyRound(tax, 2)];
  }

  /** The totals create_booking, price_preview and update_booking_seats compute alike. */
  #totals(theater: TheaterValue, seats: SeatValue[], concessions: ConcessionValue[]) {
    const ticketsSubtotal = roundedSum(seats.map((s) => s.price));
    const ticketFees = roundedSum(seats.map((s) => s.convenience_fee));
    const ticketTax = roundedSum(seats.map((s) => s.tax));
    const [concessionsSubtotal, concessionsTax] = this.#concessionSums(concessions);
    const bookingFee = pyFloatOf(theater.pricing_rules.fees.booking_fee);
    const feesTotal = pyRound(arith('+', ticketFees, bookingFee), 2);
    const taxTotal = pyRound(arith('+', ticketTax, concessionsTax), 2);
    const grandTotal = pyRound(arith('+', arith('+', arith('+', ticketsSubtotal, concessionsSubtotal), feesTotal), taxTotal), 2);
    return { ticketsSubtotal, concessionsSubtotal, bookingFee, feesTotal, taxTotal, grandTotal };
  }

  #refund(paymentId: string, amount: PyValue): PyValue {
    const method = construct(BookingPaymentMethod, { source: 'cash', payment_method_id: 'refund', extra_info: null });
    return construct(BookingPayment, { payment_id: paymentId, amount, method, created_at: NOW });
  }

  readonly functions: Readonly<Record<string, ToolFunction<MovieTheaterTools>>> = {
    list_movies: fn([], (kit) => kit.#list('movies', 'movie_id', 'title'), 'read'),
    list_theaters: fn([], (kit) => kit.#list('theaters', 'theater_id', 'name'), 'read'),
    get_movie_details: fn(['movie_id'], (kit, a) => kit.row('movies', a.movie_id!, `Movie ${pyStr(a.movie_id)} not found`), 'read'),
    get_theater_details: fn(['theater_id'], (kit, a) => kit.#theater(a.theater_id!), 'read'),
    list_shows: fn(['theater_id', 'date', optional('movie_id')], (kit, a) => kit.#listShows(a), 'read'),
    get_show_details: fn(['theater_id', 'show_id', optional('date')], (kit, a) => kit.#show(a.theater_id!, a.show_id!, a.date!)[0], 'read'),
    get_show_status: fn(['theater_id', 'show_id'], (kit, a) => kit.#show(a.theater_id!, a.show_id!)[0].status, 'read'),
    get_seat_availability: fn(['theater_id', 'show_id'], (kit, a) => kit.#availability(a), 'read'),
    price_preview: fn(['theater_id', 'show_id', 'seats', optional('concessions')], (kit, a) => kit.#pricePreview(a), 'generic'),
    create_booking: fn(
      ['theater_id', 'show_id', 'customer', 'seats', 'delivery_method', 'payments', optional('concessions'), optional('special_requests')],
      (kit, a) => kit.#createBooking(a),
      'write',
    ),
    cancel_booking: fn(['booking_id'], (kit, a) => kit.#cancelBooking(a.booking_id!), 'write'),
    update_booking_seats: fn(['booking_id', 'seats', optional('payment')], (kit, a) => kit.#updateSeats(a), 'write'),
    get_booking_details: fn(['booking_id'], (kit, a) => kit.#booking(a.booking_id!), 'read'),
    calculate: calculateTool,
    transfer_to_human_agents: transferTool,
  };

  #list(table: 'movies' | 'theaters', id: string, name: string): Map<string, PyValue>[] {
    return [...this.db[table].values()].map((row) => new Map([[id, (row as Record<string, PyValue>)[id]!], [name, (row as Record<string, PyValue>)[name]!]]));
  }

  #listShows(a: Args): ShowValue[] {
    const day = lookup(this.#theater(a.theater_id!).dates, a.date!) as { shows: ShowValue[] } | undefined;
    if (day === undefined) return [];
    return a.movie_id === null ? day.shows : day.shows.filter((s) => pyEquals(s.movie_id, a.movie_id!));
  }

  #availability(a: Args): Map<string, PyValue> {
    const theater = this.#theater(a.theater_id!);
    const [show] = this.#show(a.theater_id!, a.show_id!);
    const all = this.#allSeats(this.#auditorium(theater, show.auditorium_id));
    const booked = this.#bookedSeats(a.theater_id!, a.show_id!);
    return new Map<string, PyValue>([
      ['available', sorted(all.minus(booked).values())],
      ['booked', sorted(booked.values())],
    ]);
  }

  #pricePreview(a: Args): Map<string, PyValue> {
    const concessions = pyTruthy(a.concessions) ? a.concessions! : [];
    const { theater, show } = this.#checkRequest(a.theater_id!, a.show_id!, a.seats!);
    const seats = this.#buildSeats(show, theater, a.seats!);
    const totals = this.#totals(theater, seats, this.#concessionLines(theater, concessions));
    return new Map<string, PyValue>([
      ['tickets_subtotal', totals.ticketsSubtotal],
      ['concessions_subtotal', totals.concessionsSubtotal],
      ['fees_total', totals.feesTotal],
      ['tax_total', totals.taxTotal],
      ['grand_total', totals.grandTotal],
      ['ticket_count', seats.length],
      ['booking_fee', pyRound(totals.bookingFee, 2)],
    ]);
  }

  #newBookingId(): string {
    const id = ['BKG001', 'BKG002', 'BKG003'].find((candidate) => !this.db.bookings.has(candidate));
    if (id === undefined) throw valueError('Too many new bookings in this session');
    return id;
  }

  #createBooking(a: Args): BookingValue {
    const customer = asModel(Customer, a.customer!);
    const concessions = pyTruthy(a.concessions) ? a.concessions! : [];
    const payments = asModels(BookingPayment, a.payments!);
    const { theater, show, date } = this.#checkRequest(a.theater_id!, a.show_id!, a.seats!);
    const seats = this.#buildSeats(show, theater, a.seats!);
    const lines = this.#concessionLines(theater, concessions);
    const totals = this.#totals(theater, seats, lines);
    const paid = roundedSum(payments.map((p) => pyFloatOf(attr(p, 'amount'))));
    if (!pyEquals(paid, totals.grandTotal)) throw valueError(`Payment amount does not add up, total price is ${pyStr(totals.grandTotal)}, but paid ${pyStr(paid)}`);
    const id = this.#newBookingId();
    const tickets = seats.map((_, i) => {
      const ticketId = `${id}-TKT-${String(i + 1).padStart(3, '0')}`;
      return construct(TicketDeliveryItem, { ticket_id: ticketId, barcode: `BAR-${ticketId}` });
    });
    const delivery = construct(Delivery, { method: a.delivery_method!, tickets });
    const bookingTotals = construct(BookingTotals, {
      tickets_subtotal: totals.ticketsSubtotal,
      concessions_subtotal: totals.concessionsSubtotal,
      fees_total: totals.feesTotal,
      tax_total: totals.taxTotal,
      grand_total: totals.grandTotal,
      amount_paid: paid,
      amount_due: pyRound(arith('-', totals.grandTotal, paid), 2),
    });
    const booking = construct<BookingValue>(Booking, {
      booking_id: id,
      theater_id: a.theater_id!,
      movie_id: show.movie_id,
      show_id: a.show_id!,
      date,
      start_time_local: show.start_time_local,
      status: 'confirmed',
      created_at: NOW,
      canceled_at: null,
      customer: deepCopy(customer),
      seats,
      concessions: lines,
      promotions_applied: [],
      payment_history: deepCopy(payments),
      totals: bookingTotals,
      delivery,
      special_requests: a.special_requests!,
    });
    return this.adopt('bookings', id, booking);
  }

  #cancelBooking(id: PyValue): BookingValue {
    const found = this.#booking(id);
    if (found.status === 'canceled' || found.status === 'refunded') return found;
    const booking = this.own<BookingValue>('bookings', id as string);
    const refund = negate(pyFloatOf(booking.totals.amount_paid));
    if (!pyEquals(refund, 0)) {
      booking.payment_history.push(this.#refund(`${pyStr(id)}-refund`, pyRound(refund, 2)));
      booking.totals.amount_paid = pyRound(arith('+', booking.totals.amount_paid, refund), 2);
      booking.totals.amount_due = pyRound(arith('-', booking.totals.grand_total, booking.totals.amount_paid), 2);
    }
    booking.status = 'canceled';
    booking.canceled_at = NOW;
    return booking;
  }

  #updateSeats(a: Args): BookingValue {
    const payment = asModel(BookingPayment, a.payment!);
    const found = this.#booking(a.booking_id!);
    const theater = this.#theater(found.theater_id);
    const [show] = this.#show(found.theater_id, found.show_id);
    if (found.status !== 'confirmed') throw valueError(`Only confirmed bookings can be updated (status=${found.status})`);
    if (show.status !== 'scheduled') throw valueError(`Show ${found.show_id} is not bookable (status=${show.status})`);
    const auditorium = this.#auditorium(theater, show.auditorium_id);
    const wanted = new IdSet(iterate(a.seats!).map((s) => subscript(s, 'seat_id')));
    this.#assertSeatsExist(auditorium, wanted);
    const current = new IdSet(found.seats.map((s) => s.seat_id));
    const unavailable = wanted.minus(current).and(this.#bookedSeats(found.theater_id, found.show_id));
    if (unavailable.values().length) throw valueError(`Seats not available: ${unavailable}`);
    const seats = this.#buildSeats(show, theater, a.seats!);
    const totals = this.#totals(theater, seats, found.concessions);
    const diff = pyRound(arith('-', totals.grandTotal, pyFloatOf(found.totals.grand_total)), 2);
    if (compare(diff, 0, '>')) {
      if (payment === null || !pyEquals(pyRound(pyFloatOf(attr(payment, 'amount')), 2), diff)) {
        throw valueError(`Additional payment of ${pyStr(diff)} is required to complete the update`);
      }
    }
    const booking = this.own<BookingValue>('bookings', a.booking_id as string);
    if (compare(diff, 0, '>')) booking.payment_history.push(payment);
    else if (compare(diff, 0, '<')) booking.payment_history.push(this.#refund(`${pyStr(a.booking_id)}-adj-refund`, diff));
    if (!pyEquals(diff, 0)) booking.totals.amount_paid = pyRound(arith('+', booking.totals.amount_paid, diff), 2);
    booking.seats = seats;
    booking.totals.tickets_subtotal = totals.ticketsSubtotal;
    booking.totals.fees_total = totals.feesTotal;
    booking.totals.tax_total = totals.taxTotal;
    booking.totals.grand_total = totals.grandTotal;
    booking.totals.amount_due = pyRound(arith('-', booking.totals.grand_total, booking.totals.amount_paid), 2);
    return booking;
  }
}
