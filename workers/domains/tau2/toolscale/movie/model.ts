// ToolScale movie's data model (tau2/domains/movie/data_model.py), field by field in its order.
// Dict keys typed as a Literal (format surcharges) are kept as strings. Pure TypeScript.

import { t } from '../../model.ts';
import type { PyModel, PyValue } from '../../pyValues.ts';
import { database, opt, shape } from '../common.ts';

const FORMAT = t.choice(['2D', '3D', 'IMAX', 'Dolby']);
const CastMember = shape('CastMember', { name: t.str, role: t.str });
const Crew = shape('Crew', { director: t.str, writer: t.str, producer: t.str, music: t.str });
const Movie = shape('Movie', {
  movie_id: t.str,
  title: t.str,
  genres: t.list(t.choice(['Action', 'Adventure', 'Comedy', 'Drama', 'Horror', 'Thriller', 'Romance', 'Science Fiction', 'Fantasy', 'Mystery'])),
  runtime_minutes: t.int,
  mpaa_rating: t.choice(['G', 'PG', 'PG-13', 'R', 'NC-17', 'NR']),
  languages_audio: t.list(t.str),
  subtitles: t.list(t.str),
  formats: t.list(FORMAT),
  release_date: t.str,
  end_of_run_est: t.str,
  cast: t.list(t.model(CastMember)),
  crew: t.model(Crew),
  synopsis: t.str,
});
const TheaterAddress = shape('TheaterAddress', { street: t.str, city: t.str, state: t.str, country: t.str, zip: t.str });
const TheaterContact = shape('TheaterContact', { phone: t.str, email: t.str, website: t.str });
const Seat = shape('Seat', { seat_id: t.str, type: t.str, wheelchair_accessible: t.bool });
const SeatMap = shape('SeatMap', { rows: t.dict(t.list(t.model(Seat))) });
const Auditorium = shape('Auditorium', { auditorium_id: t.str, name: t.str, capacity: t.int, features: t.list(t.str), seat_map: t.model(SeatMap) });
const PricingBase = shape('PricingBase', { adult: t.float, child: t.float, senior: t.float });
const TimeBasedPricing = shape('TimeBasedPricing', { matinee_discount: t.float, peak_surcharge: t.float });
const TheaterFees = shape('TheaterFees', { convenience_fee: t.float, booking_fee: t.float });
const TheaterPricingRules = shape('TheaterPricingRules', {
  base: t.model(PricingBase),
  format_surcharges: t.dict(t.float),
  time_based: t.model(TimeBasedPricing),
  fees: t.model(TheaterFees),
  tax_rate_percent: t.float,
});
const PriceFees = shape('PriceFees', { convenience_fee: t.float });
const PriceSchema = shape('PriceSchema', { adult: t.float, child: t.float, senior: t.float, fees: t.model(PriceFees) });
const Show = shape('Show', {
  show_id: t.str,
  movie_id: t.str,
  auditorium_id: t.str,
  start_time_local: t.str,
  end_time_local: t.str,
  format: FORMAT,
  language: t.str,
  subtitles: t.str,
  status: t.choice(['scheduled', 'canceled', 'completed']),
  price_schema: t.model(PriceSchema),
});
const TheaterDaySchedule = shape('TheaterDaySchedule', { shows: t.list(t.model(Show)) });
const Theater = shape('Theater', {
  theater_id: t.str,
  name: t.str,
  address: t.model(TheaterAddress),
  contact: t.model(TheaterContact),
  amenities: t.list(t.str),
  auditoriums: t.dict(t.model(Auditorium)),
  pricing_rules: t.model(TheaterPricingRules),
  dates: t.dict(t.model(TheaterDaySchedule)),
});
const CustomerName = shape('CustomerName', { first_name: t.str, last_name: t.str });
export const Customer = shape('Customer', { name: t.model(CustomerName), email: t.str, phone: t.str, loyalty_id: opt(t.str) });
export const BookedSeat = shape('BookedSeat', { seat_id: t.str, ticket_type: t.choice(['adult', 'child', 'senior']), price: t.float, convenience_fee: t.float, tax: t.float });
export const ConcessionItem = shape('ConcessionItem', { item_id: t.str, name: t.str, size: t.str, quantity: t.int, price_each: t.float, tax_each: t.float, total: t.float });
const PromotionApplied = shape('PromotionApplied', { code: t.str, description: t.str, discount_amount: t.float });
const PaymentExtraInfo = shape('PaymentExtraInfo', { brand: opt(t.str), last_four: opt(t.str) });
export const BookingPaymentMethod = shape('BookingPaymentMethod', {
  source: t.choice(['card', 'wallet', 'cash', 'gift_card']),
  payment_method_id: t.str,
  extra_info: opt(t.model(PaymentExtraInfo)),
});
export const BookingPayment = shape('BookingPayment', { payment_id: t.str, amount: t.float, method: t.model(BookingPaymentMethod), created_at: t.str });
export const BookingTotals = shape('BookingTotals', {
  tickets_subtotal: t.float,
  concessions_subtotal: t.float,
  fees_total: t.float,
  tax_total: t.float,
  grand_total: t.float,
  amount_paid: t.float,
  amount_due: t.float,
});
export const TicketDeliveryItem = shape('TicketDeliveryItem', { ticket_id: t.str, barcode: t.str });
export const Delivery = shape('Delivery', { method: t.choice(['e-ticket', 'box-office', 'kiosk']), tickets: t.list(t.model(TicketDeliveryItem)) });
export const Booking = shape('Booking', {
  booking_id: t.str,
  theater_id: t.str,
  movie_id: t.str,
  show_id: t.str,
  date: t.str,
  start_time_local: t.str,
  status: t.choice(['confirmed', 'canceled', 'refunded', 'pending']),
  created_at: t.str,
  canceled_at: opt(t.str),
  customer: t.model(Customer),
  seats: t.list(t.model(BookedSeat)),
  concessions: t.list(t.model(ConcessionItem)),
  promotions_applied: t.list(t.model(PromotionApplied)),
  payment_history: t.list(t.model(BookingPayment)),
  totals: t.model(BookingTotals),
  delivery: t.model(Delivery),
  special_requests: opt(t.str),
});
export const MovieDbSchema = database('MovieTheaterDB', { movies: Movie, theaters: Theater, bookings: Booking });

// The shapes the tools read and write (a model's dump form).
type Money = PyValue;
export type ShowValue = PyModel & {
  show_id: string;
  movie_id: string;
  auditorium_id: string;
  start_time_local: string;
  status: string;
  price_schema: { adult: Money; child: Money; senior: Money; fees: { convenience_fee: Money } };
};
export type TheaterValue = PyModel & {
  theater_id: string;
  name: string;
  auditoriums: Map<string, PyValue>;
  pricing_rules: { fees: { booking_fee: Money }; tax_rate_percent: Money };
  dates: Map<string, PyValue>;
};
export type AuditoriumValue = PyModel & { seat_map: { rows: Map<string, PyValue> } };
export type SeatValue = PyModel & { seat_id: PyValue; price: Money; convenience_fee: Money; tax: Money };
export type ConcessionValue = PyModel & { price_each: Money; tax_each: Money; quantity: Money };
export type BookingValue = PyModel & {
  theater_id: string;
  show_id: string;
  status: string;
  seats: SeatValue[];
  concessions: ConcessionValue[];
  payment_history: PyValue[];
  totals: PyModel & { amount_paid: Money; grand_total: Money };
};
export type MovieDb = { movies: Map<string, PyValue>; theaters: Map<string, PyValue>; bookings: Map<string, PyValue> };
