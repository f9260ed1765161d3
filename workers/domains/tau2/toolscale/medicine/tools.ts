// ToolScale medicine's tools (tau2/domains/medicine/tools.py), ported call for call with the same
// errors, results and quirks: an argument typed `Model | dict` is built into the model only when
// it is a dict (anything else is stored as it came); a status, a counseling flag, an email or a
// phone is stored unvalidated; a fill records the dispense and the payments before it checks the
// lots, so a missing lot or a short batch fails after part of the fill is written; a lot is looked
// up by its batch's key. New prescriptions are RX1001-RX1003, dates a fixed "24-05-15".
// Pure TypeScript.

import { construct, deepCopy } from '../../model.ts';
import { valueError } from '../../pyErrors.ts';
import { arith, compare, lookup, lower, negate, pyAbsolute, strip } from '../../pyOps.ts';
import { type PyFloat, pyEquals, pyFloat, pyRound, pyStr, pyTruthy, type PyModel, type PyValue } from '../../pyValues.ts';
import { TableToolkit } from '../../tableSeed.ts';
import { fn, type ToolFunction } from '../../toolkit.ts';
import { type Args, asModel, asModels, attr, optional, transferTool } from '../common.ts';
import {
  Dispense,
  DispenseInsurance,
  DispenseInsuranceReversal,
  DispensedItem,
  MedicationOrder,
  MedicinePaymentMethod,
  PatientAddress,
  PatientInsurance,
  PharmacyInfo,
  PharmacyPayment,
  Prescriber,
  Prescription,
  type BatchValue,
  type MedicationValue,
  type MedicineDb,
  type PatientValue,
  type PaymentValue,
  type PrescriptionValue,
} from './model.ts';

const TODAY = '24-05-15';
const NOW = '24-05-15-15-00';

export class MedicineTools extends TableToolkit<MedicineDb> {
  readonly className = 'MedicineTools';

  readonly #patient = this.rowsOf<PatientValue>('patients', 'Patient {id} not found');
  readonly #prescription = this.rowsOf<PrescriptionValue>('prescriptions', 'Prescription {id} not found');
  readonly #medication = this.rowsOf<MedicationValue>('medications', 'Medication {id} not found');

  /** The prescription as this rollout's own, to write to. */
  #ownPrescription(id: PyValue): PrescriptionValue {
    this.#prescription(id);
    return this.own('prescriptions', id as string);
  }

  #ownPatient(id: PyValue): PatientValue {
    this.#patient(id);
    return this.own('patients', id as string);
  }

  #assertPaymentMethod(patientId: PyValue, paymentId: PyValue): void {
    if (lookup(this.#patient(patientId).payment_methods, paymentId) === undefined) throw valueError(`Payment method ${pyStr(paymentId)} not found for patient`);
  }

  readonly functions: Readonly<Record<string, ToolFunction<MedicineTools>>> = {
    get_patient_details: fn(['patient_id'], (kit, a) => kit.#patient(a.patient_id!), 'read'),
    get_prescription_details: fn(['prescription_id'], (kit, a) => kit.#prescription(a.prescription_id!), 'read'),
    get_medication_details: fn(['medication_id'], (kit, a) => kit.#medication(a.medication_id!), 'read'),
    list_patient_prescriptions: fn(['patient_id'], (kit, a) => kit.#patient(a.patient_id!).prescriptions.map((id) => kit.#prescription(id)), 'read'),
    search_medications: fn(['query', optional('prescription_required'), optional('controlled_substance'), optional('route')], (kit, a) => kit.#search(a), 'read'),
    check_medication_inventory: fn(['medication_id'], (kit, a) => kit.#inventory(a.medication_id!), 'read'),
    update_patient_contact: fn(['patient_id', optional('email'), optional('phone'), optional('address')], (kit, a) => kit.#updateContact(a), 'write'),
    update_patient_insurance: fn(['patient_id', 'insurance'], (kit, a) => kit.#updateInsurance(a), 'write'),
    add_patient_payment_method: fn(['patient_id', 'payment_method'], (kit, a) => kit.#addPaymentMethod(a), 'write'),
    remove_patient_payment_method: fn(['patient_id', 'payment_method_id'], (kit, a) => kit.#removePaymentMethod(a), 'write'),
    create_prescription: fn(
      [
        'patient_id',
        'pharmacy',
        'prescriber',
        'medication_orders',
        'expires_at',
        { name: 'notes', default: () => '' },
        { name: 'counseling_offered', default: () => 'no' },
        { name: 'noncovered_items', default: () => 0 },
      ],
      (kit, a) => kit.#create(a),
      'write',
    ),
    update_prescription_status: fn(['prescription_id', 'status'], (kit, a) => kit.#setField(a.prescription_id!, 'status', a.status!), 'write'),
    transfer_prescription: fn(['prescription_id', 'new_pharmacy'], (kit, a) => kit.#transfer(a), 'write'),
    set_counseling_offered: fn(['prescription_id', 'offered'], (kit, a) => kit.#setField(a.prescription_id!, 'counseling_offered', a.offered!), 'write'),
    add_prescription_payment: fn(['prescription_id', 'payment'], (kit, a) => kit.#addPayment(a), 'write'),
    cancel_prescription: fn(['prescription_id'], (kit, a) => kit.#cancel(a.prescription_id!), 'write'),
    fill_prescription: fn(['prescription_id', 'pharmacist_id', 'items', 'insurance', 'payments'], (kit, a) => kit.#fill(a), 'write'),
    reverse_insurance_claim: fn(['prescription_id', 'fill_id', 'reversal_amount', optional('refund_to_payment_id'), optional('refund_amount')], (kit, a) => kit.#reverseClaim(a), 'write'),
    transfer_to_human_agents: transferTool,
  };

  #search(a: Args): MedicationValue[] {
    const q = lower(strip(a.query!));
    const results: MedicationValue[] = [];
    for (const value of this.db.medications.values()) {
      const med = value as MedicationValue;
      if (!(lower(med.brand_name).includes(q) || lower(med.generic_name).includes(q) || med.indications.some((i) => lower(i).includes(q)))) continue;
      if (pyTruthy(a.prescription_required) && !pyEquals(med.prescription_required, a.prescription_required!)) continue;
      if (pyTruthy(a.controlled_substance) && !pyEquals(med.controlled_substance_schedule, a.controlled_substance!)) continue;
      if (pyTruthy(a.route) && lower(med.route) !== lower(a.route!)) continue;
      results.push(med);
    }
    return results;
  }

  #inventory(id: PyValue): Map<string, PyValue> {
    const med = this.#medication(id);
    const batches = [...med.batches.values()] as BatchValue[];
    const soonest = batches.length ? batches.map((b) => b.expiration_date).reduce((min, d) => (compare(d, min, '<') ? d : min)) : null;
    return new Map<string, PyValue>([
      ['medication_id', id],
      ['brand_name', med.brand_name],
      ['generic_name', med.generic_name],
      ['total_units', batches.reduce<PyValue>((sum, b) => arith('+', sum, b.quantity_units), 0)],
      ['num_batches', batches.length],
      ['soonest_expiration', soonest],
    ]);
  }

  #updateContact(a: Args): PatientValue {
    const patient = this.#ownPatient(a.patient_id!);
    if (a.email !== null) patient.email = a.email!;
    if (a.phone !== null) patient.phone = a.phone!;
    if (a.address !== null) patient.address = asModel(PatientAddress, a.address!);
    return patient;
  }

  #updateInsurance(a: Args): PatientValue {
    this.#patient(a.patient_id!);
    const insurance = asModel(PatientInsurance, a.insurance!);
    const patient = this.#ownPatient(a.patient_id!);
    patient.insurance = insurance;
    return patient;
  }

  #addPaymentMethod(a: Args): PatientValue {
    const patient = this.#patient(a.patient_id!);
    const method = asModel(MedicinePaymentMethod, a.payment_method!);
    const id = attr(method, 'payment_method_id');
    if (lookup(patient.payment_methods, id) !== undefined) throw valueError(`Payment method ${pyStr(id)} already exists`);
    const owned = this.#ownPatient(a.patient_id!);
    owned.payment_methods.set(id as string, method);
    return owned;
  }

  #removePaymentMethod(a: Args): PatientValue {
    const id = a.payment_method_id!;
    if (lookup(this.#patient(a.patient_id!).payment_methods, id) === undefined) throw valueError(`Payment method ${pyStr(id)} not found`);
    const patient = this.#ownPatient(a.patient_id!);
    patient.payment_methods.delete(id as string);
    return patient;
  }

  #newPrescriptionId(): string {
    const id = ['RX1001', 'RX1002', 'RX1003'].find((candidate) => !this.db.prescriptions.has(candidate));
    if (id === undefined) throw valueError('Too many prescriptions');
    return id;
  }

  #create(a: Args): PrescriptionValue {
    this.#patient(a.patient_id!);
    const pharmacy = asModel(PharmacyInfo, a.pharmacy!);
    const prescriber = asModel(Prescriber, a.prescriber!);
    const orders = asModels(MedicationOrder, a.medication_orders!);
    const id = this.#newPrescriptionId();
    const totalItems = orders.reduce<PyValue>((sum, order) => arith('+', sum, attr(order, 'quantity')), 0);
    const prescription = construct<PrescriptionValue>(Prescription, {
      prescription_id: id,
      patient_id: a.patient_id!,
      pharmacy,
      prescriber,
      status: 'active',
      medication_orders: deepCopy(orders),
      created_at: TODAY,
      expires_at: a.expires_at!,
      dispenses: [],
      payment_history: [],
      total_items: totalItems,
      noncovered_items: a.noncovered_items!,
      counseling_offered: a.counseling_offered!,
      notes: a.notes!,
    });
    this.adopt('prescriptions', id, prescription);
    this.#ownPatient(a.patient_id!).prescriptions.push(id);
    return prescription;
  }

  #setField(id: PyValue, field: string, value: PyValue): PrescriptionValue {
    const rx = this.#ownPrescription(id);
    rx[field] = value;
    return rx;
  }

  #transfer(a: Args): PrescriptionValue {
    this.#prescription(a.prescription_id!);
    const pharmacy = asModel(PharmacyInfo, a.new_pharmacy!);
    const rx = this.#ownPrescription(a.prescription_id!);
    rx.pharmacy = pharmacy;
    rx.status = 'transferred';
    return rx;
  }

  #addPayment(a: Args): PrescriptionValue {
    const rx = this.#prescription(a.prescription_id!);
    const payment = asModel<PaymentValue>(PharmacyPayment, a.payment!);
    this.#patient(rx.patient_id);
    this.#assertPaymentMethod(rx.patient_id, attr(payment, 'payment_id'));
    const owned = this.#ownPrescription(a.prescription_id!);
    owned.payment_history.push(payment);
    return owned;
  }

  #cancel(id: PyValue): PrescriptionValue {
    const rx = this.#ownPrescription(id);
    const refunds = rx.payment_history.filter((p) => !pyEquals(p.amount, 0)).map((p) => construct(PharmacyPayment, { payment_id: p.payment_id, amount: negate(p.amount) }));
    rx.payment_history.push(...(refunds as PaymentValue[]));
    rx.status = 'canceled';
    return rx;
  }

  #fill(a: Args): PrescriptionValue {
    const rx = this.#prescription(a.prescription_id!);
    const insurance = asModel(DispenseInsurance, a.insurance!);
    const items = asModels(DispensedItem, a.items!);
    const payments = asModels<PaymentValue>(PharmacyPayment, a.payments!);
    const orderIds = new Set(rx.medication_orders.map((mo) => mo.medication_id));
    for (const item of items) {
      const medId = attr(item, 'medication_id');
      if (!orderIds.has(medId as string)) throw valueError(`Dispensed item medication_id ${pyStr(medId)} not in prescription orders`);
    }
    for (const payment of payments) this.#assertPaymentMethod(rx.patient_id, attr(payment, 'payment_id'));
    const total = items.reduce<PyValue>((sum, item) => arith('+', sum, attr(item, 'price')), 0);
    const over = arith('-', total, attr(insurance, 'billed_amount'));
    const uncovered = compare(over, 0, '>') ? over : pyFloat(0); // max(0.0, over)
    const expected = pyRound(arith('+', attr(insurance, 'patient_copay'), uncovered), 2);
    const actual = pyRound(payments.reduce<number | PyFloat>((sum, p) => arith('+', sum, attr(p, 'amount')), 0), 2);
    if (!pyEquals(actual, expected)) throw valueError(`Payment mismatch: expected ${pyStr(expected)} but got ${pyStr(actual)}`);
    const owned = this.#ownPrescription(a.prescription_id!);
    const fill = construct(Dispense, {
      fill_id: `FILL${String(owned.dispenses.length + 1).padStart(2, '0')}`,
      date_filled_est: NOW,
      pharmacist_id: a.pharmacist_id!,
      items: deepCopy(items),
      insurance,
    });
    owned.dispenses.push(fill as PrescriptionValue['dispenses'][number]);
    owned.payment_history.push(...deepCopy(payments));
    const dispensed = new Set(items.map((item) => (item as PyModel).medication_id));
    for (const order of owned.medication_orders) {
      if (dispensed.has(order.medication_id) && compare(order.refills_remaining, 0, '>')) order.refills_remaining = arith('-', order.refills_remaining, 1);
    }
    for (const item of items as (PyModel & { medication_id: string; lot_number: string; quantity_dispensed: PyValue })[]) {
      const med = this.#medication(item.medication_id);
      if (!med.batches.has(item.lot_number)) throw valueError(`Lot number ${item.lot_number} not found for medication ${item.medication_id}`);
      if (compare((med.batches.get(item.lot_number) as BatchValue).quantity_units, item.quantity_dispensed, '<')) {
        throw valueError(`Insufficient inventory in lot ${item.lot_number} for medication ${item.medication_id}`);
      }
      const batch = this.own<MedicationValue>('medications', item.medication_id).batches.get(item.lot_number) as BatchValue;
      batch.quantity_units = arith('-', batch.quantity_units, item.quantity_dispensed);
    }
    owned.status = 'filled';
    return owned;
  }

  #reverseClaim(a: Args): PrescriptionValue {
    const rx = this.#prescription(a.prescription_id!);
    const index = rx.dispenses.findIndex((d) => pyEquals(d.fill_id, a.fill_id!));
    if (index < 0) throw valueError(`Fill ${pyStr(a.fill_id)} not found for prescription ${pyStr(a.prescription_id)}`);
    const reversal = construct(DispenseInsuranceReversal, { date_est: NOW, amount: a.reversal_amount! });
    const owned = this.#ownPrescription(a.prescription_id!);
    owned.dispenses[index]!.insurance.reversals.push(reversal);
    if (a.refund_to_payment_id !== null && a.refund_amount !== null) {
      this.#assertPaymentMethod(owned.patient_id, a.refund_to_payment_id!);
      owned.payment_history.push(construct<PaymentValue>(PharmacyPayment, { payment_id: a.refund_to_payment_id!, amount: negate(pyAbsolute(a.refund_amount!)) }));
    }
    owned.status = 'on-hold';
    return owned;
  }
}
