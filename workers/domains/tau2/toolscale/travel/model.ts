// ToolScale travel's data model (tau2/domains/travel/data_model.py), field by field in its order.
// A traveler's bookings live inside the traveler. Pure TypeScript.

import { t } from '../../model.ts';
import type { PyModel, PyValue } from '../../pyValues.ts';
import { database, opt, shape } from '../common.ts';

const PersonName = shape('PersonName', { first_name: t.str, last_name: t.str });
const PostalAddress = shape('PostalAddress', { street: t.str, city: t.str, state: t.str, country: t.str, zip: t.str });
const ContactInfo = shape('ContactInfo', { email: t.str, phone: t.str });
const PassportInfo = shape('PassportInfo', { number: t.str, nationality: t.str, expiry: t.str });
const TravelerPreferences = shape('TravelerPreferences', { dietary: opt(t.str), accessibility: opt(t.str), room_type: opt(t.str), bed_preference: opt(t.str), other: opt(t.str) });
const PaymentExtraInfo = shape('PaymentExtraInfo', { brand: opt(t.str), last_four: opt(t.str) });
const TravelerPaymentMethod = shape('TravelerPaymentMethod', { source: t.str, payment_method_id: t.str, extra_info: opt(t.model(PaymentExtraInfo)) });
const Companion = shape('Companion', { first_name: t.str, last_name: t.str, dob: t.str, passport: opt(t.model(PassportInfo)) });
export const BookingTravelerInfo = shape('BookingTravelerInfo', { first_name: t.str, last_name: t.str, dob: t.str });
export const RoomingInfo = shape('RoomingInfo', { room_type: t.str, occupancy: t.int });
export const BookingAddOn = shape('BookingAddOn', { type: t.str, description: t.str, price: t.float });
export const BookingPayment = shape('BookingPayment', { payment_id: t.str, amount: t.float });
const Location = shape('Location', { city: t.str, country: t.str });
const PackageDeparture = shape('PackageDeparture', { status: t.str, base_price: t.float, currency: t.str, available_slots: t.int, early_bird_deadline: t.str });
const ItineraryItem = shape('ItineraryItem', { day: t.int, title: t.str, description: t.str, location: t.model(Location), included_meals: t.list(t.str) });
const Accommodation = shape('Accommodation', { name: t.str, type: t.str, location: t.model(Location), nights: t.int });
const TransportationInfo = shape('TransportationInfo', { international: t.str, domestic: t.str, ground: t.str });
const Activity = shape('Activity', { name: t.str, description: t.str, day: t.int });
const PackagePolicies = shape('PackagePolicies', { cancellation_policy: t.str, change_policy: t.str, refund_policy: t.str });
const Package = shape('Package', {
  package_id: t.str,
  name: t.str,
  category: t.str,
  description: t.str,
  destinations: t.list(t.model(Location)),
  duration_days: t.int,
  departure_points: t.list(t.model(Location)),
  departures: t.dict(t.model(PackageDeparture)),
  itinerary: t.list(t.model(ItineraryItem)),
  inclusions: t.list(t.str),
  exclusions: t.list(t.str),
  accommodations: t.list(t.model(Accommodation)),
  transportation: t.model(TransportationInfo),
  activities: t.list(t.model(Activity)),
  policies: t.model(PackagePolicies),
  notes: opt(t.str),
  managed_by_agents: t.list(t.str),
});
export const Booking = shape('Booking', {
  booking_id: t.str,
  package_id: t.str,
  agent_id: t.str,
  booking_date: t.str,
  departure_date: t.str,
  status: t.str,
  travelers: t.list(t.model(BookingTravelerInfo)),
  rooming: t.model(RoomingInfo),
  add_ons: t.list(t.model(BookingAddOn)),
  insurance: opt(t.str),
  payment_history: t.list(t.model(BookingPayment)),
  total_price: t.float,
  notes: opt(t.str),
});
const Traveler = shape('Traveler', {
  traveler_id: t.str,
  name: t.model(PersonName),
  address: t.model(PostalAddress),
  contact: t.model(ContactInfo),
  dob: t.str,
  passport: opt(t.model(PassportInfo)),
  preferences: opt(t.model(TravelerPreferences)),
  payment_methods: t.dict(t.model(TravelerPaymentMethod)),
  saved_companions: t.list(t.model(Companion)),
  memberships: t.list(t.str),
  bookings: t.list(t.model(Booking)),
});
const AgencyInfo = shape('AgencyInfo', { name: t.str, address: t.model(PostalAddress) });
const AvailabilityDay = shape('AvailabilityDay', { slots: t.list(t.str), timezone: t.str });
const Agent = shape('Agent', {
  agent_id: t.str,
  name: t.model(PersonName),
  contact: t.model(ContactInfo),
  agency: t.model(AgencyInfo),
  certifications: t.list(t.str),
  languages: t.list(t.str),
  regions_of_expertise: t.list(t.str),
  commission_rate: t.float,
  employment_status: t.str,
  assigned_travelers: t.list(t.str),
  managed_packages: t.list(t.str),
  bookings_handled: t.list(t.str),
  availability: t.dict(t.model(AvailabilityDay)),
  notes: opt(t.str),
});
export const TravelDbSchema = database('TravelAgencyDB', { packages: Package, travelers: Traveler, agents: Agent });

// The shapes the tools read and write (a model's dump form).
export type DepartureValue = PyModel & { status: string; base_price: PyValue; available_slots: PyValue };
export type PackageValue = PyModel & {
  package_id: string;
  category: string;
  destinations: (PyModel & { city: string; country: string })[];
  departures: Map<string, PyValue>;
  managed_by_agents: string[];
};
export type BookingValue = PyModel & {
  booking_id: string;
  package_id: string;
  departure_date: string;
  /** A list, unless an update stored what it was given. */
  travelers: PyValue;
  add_ons: PyValue[];
  insurance: PyValue;
  payment_history: (PyModel & { payment_id: string; amount: PyValue })[];
  total_price: PyValue;
};
export type TravelerValue = PyModel & { payment_methods: Map<string, PyValue>; bookings: BookingValue[] };
export type AgentValue = PyModel & { assigned_travelers: PyValue[]; bookings_handled: PyValue[]; availability: Map<string, PyValue> };
export type TravelDb = { packages: Map<string, PyValue>; travelers: Map<string, PyValue>; agents: Map<string, PyValue> };
