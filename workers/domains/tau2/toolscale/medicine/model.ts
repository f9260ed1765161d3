// ToolScale medicine's data model (tau2/domains/medicine/data_model.py), field by field in its
// order. Pure TypeScript.

import { t } from '../../model.ts';
import type { PyModel, PyValue } from '../../pyValues.ts';
import { database, opt, shape } from '../common.ts';

const YES_NO = t.choice(['yes', 'no']);
const Name = shape('Name', { first_name: t.str, last_name: t.str });
const MedicationImage = shape('MedicationImage', { url: t.str, view: t.choice(['front', 'back']) });
const MedicationStorage = shape('MedicationStorage', { temperature_c: t.str, protect_from_light: YES_NO, notes: t.str });
const MedicationDosageGuidelines = shape('MedicationDosageGuidelines', { adults: t.str, pediatrics: t.str, geriatrics: t.str, max_daily_dose: t.str });
const MedicationBatch = shape('MedicationBatch', { lot_number: t.str, manufacture_date: t.str, expiration_date: t.str, quantity_units: t.int, unit: t.str });
const MedicationPricing = shape('MedicationPricing', { wholesale_price: t.float, suggested_retail_price: t.float });
const Medication = shape('Medication', {
  medication_id: t.str,
  brand_name: t.str,
  generic_name: t.str,
  dosage_form: t.str,
  strength: t.str,
  route: t.str,
  ndc: t.str,
  atc_code: t.str,
  manufacturer: t.str,
  prescription_required: YES_NO,
  controlled_substance_schedule: t.choice(['II', 'III', 'IV', 'V', 'none']),
  indications: t.list(t.str),
  contraindications: t.list(t.str),
  warnings: t.list(t.str),
  common_side_effects: t.list(t.str),
  storage: t.model(MedicationStorage),
  dosage_guidelines: t.model(MedicationDosageGuidelines),
  images: t.list(t.model(MedicationImage)),
  batches: t.dict(t.model(MedicationBatch)),
  pricing: t.model(MedicationPricing),
});
export const PatientAddress = shape('PatientAddress', { street: t.str, city: t.str, country: t.str, state: t.str, zip: t.str });
const PatientCurrentMedication = shape('PatientCurrentMedication', { medication_id: t.str, name: t.str, strength: t.str, dosage: t.str, start_date: t.str });
export const PatientInsurance = shape('PatientInsurance', { provider: t.str, plan_name: t.str, member_id: t.str, group: t.str, bin: t.str, pcn: t.str });
const MedicinePaymentMethodExtraInfo = shape('MedicinePaymentMethodExtraInfo', { brand: opt(t.str), last_four: opt(t.str) });
export const MedicinePaymentMethod = shape('MedicinePaymentMethod', { source: t.str, payment_method_id: t.str, extra_info: t.model(MedicinePaymentMethodExtraInfo) });
const EmergencyContact = shape('EmergencyContact', { name: t.str, relationship: t.str, phone: t.str });
const SavedDependent = shape('SavedDependent', { first_name: t.str, last_name: t.str, dob: t.str, relationship: t.str });
const Patient = shape('Patient', {
  patient_id: t.str,
  name: t.model(Name),
  address: t.model(PatientAddress),
  email: t.str,
  phone: t.str,
  dob: t.str,
  gender: t.str,
  allergies: t.list(t.str),
  medical_conditions: t.list(t.str),
  current_medications: t.list(t.model(PatientCurrentMedication)),
  insurance: t.model(PatientInsurance),
  payment_methods: t.dict(t.model(MedicinePaymentMethod)),
  emergency_contacts: t.list(t.model(EmergencyContact)),
  saved_dependents: t.list(t.model(SavedDependent)),
  membership: t.str,
  prescriptions: t.list(t.str),
});
const PharmacyAddress = shape('PharmacyAddress', { street: t.str, city: t.str, state: t.str, zip: t.str });
export const PharmacyInfo = shape('PharmacyInfo', { pharmacy_id: t.str, name: t.str, address: t.model(PharmacyAddress) });
export const Prescriber = shape('Prescriber', { doctor_id: t.str, name: t.model(Name), npi: t.str, clinic: t.str });
export const MedicationOrder = shape('MedicationOrder', {
  medication_id: t.str,
  brand_name: t.str,
  generic_name: t.str,
  strength: t.str,
  dosage_form: t.str,
  route: t.str,
  sig: t.str,
  quantity: t.int,
  days_supply: t.int,
  substitution_allowed: YES_NO,
  refills_allowed: t.int,
  refills_remaining: t.int,
});
export const DispensedItem = shape('DispensedItem', { medication_id: t.str, quantity_dispensed: t.int, lot_number: t.str, expiration_date: t.str, price: t.float });
export const DispenseInsuranceReversal = shape('DispenseInsuranceReversal', { date_est: t.str, amount: t.float });
export const DispenseInsurance = shape('DispenseInsurance', {
  billed_amount: t.float,
  insurance_paid: t.float,
  patient_copay: t.float,
  prior_authorization_id: opt(t.str),
  reversals: t.list(t.model(DispenseInsuranceReversal)),
});
export const Dispense = shape('Dispense', {
  fill_id: t.str,
  date_filled_est: t.str,
  pharmacist_id: t.str,
  items: t.list(t.model(DispensedItem)),
  insurance: t.model(DispenseInsurance),
});
export const PharmacyPayment = shape('PharmacyPayment', { payment_id: t.str, amount: t.float });
export const Prescription = shape('Prescription', {
  prescription_id: t.str,
  patient_id: t.str,
  pharmacy: t.model(PharmacyInfo),
  prescriber: t.model(Prescriber),
  status: t.choice(['active', 'filled', 'on-hold', 'expired', 'canceled', 'transferred']),
  medication_orders: t.list(t.model(MedicationOrder)),
  created_at: t.str,
  expires_at: t.str,
  dispenses: t.list(t.model(Dispense)),
  payment_history: t.list(t.model(PharmacyPayment)),
  total_items: t.int,
  noncovered_items: t.int,
  counseling_offered: YES_NO,
  notes: t.str,
});
export const MedicineDbSchema = database('MedicineDB', { medications: Medication, patients: Patient, prescriptions: Prescription });

// The shapes the tools read and write (a model's dump form).
export type MedicationValue = PyModel & {
  brand_name: string;
  generic_name: string;
  route: string;
  prescription_required: string;
  controlled_substance_schedule: string;
  indications: string[];
  batches: Map<string, PyValue>;
};
export type BatchValue = PyModel & { expiration_date: string; quantity_units: PyValue };
export type PatientValue = PyModel & { payment_methods: Map<string, PyValue>; prescriptions: PyValue[] };
export type OrderValue = PyModel & { medication_id: string; quantity: PyValue; refills_remaining: PyValue };
export type PaymentValue = PyModel & { payment_id: PyValue; amount: PyValue };
export type DispenseValue = PyModel & { fill_id: string; insurance: PyModel & { reversals: PyValue[] } };
export type PrescriptionValue = PyModel & {
  patient_id: string;
  medication_orders: OrderValue[];
  dispenses: DispenseValue[];
  payment_history: PaymentValue[];
};
export type MedicineDb = { medications: Map<string, PyValue>; patients: Map<string, PyValue>; prescriptions: Map<string, PyValue> };
