// τ²-Bench telecom's agent tools (tau2/domains/telecom/tools.py), call for call, with the
// functions its tasks use to set up a scenario and to assert its outcome. Today is fixed
// (2025-02-25), as in τ². One thing cannot be ported as is: a new draft bill gets an id from
// `uuid4` in τ², so no two runs agree on it; here the id comes from `newBillId`, random unless a
// test passes its own. Pure TypeScript.

import { construct } from '../model.ts';
import { valueError, typeError } from '../pyErrors.ts';
import { less, lower, startsWith } from '../pyOps.ts';
import { formatFixed, numberOf, pyAdd, pyEquals, PyFloat, pyMul, pyStr, pyTruthy, type PyModel, type PyValue } from '../pyValues.ts';
import { fn, Toolkit, type ToolFunction } from '../toolkit.ts';
import { Bill, BILL_STATUS, LINE_STATUS, LineItem } from './model.ts';

export const TODAY = '2025-02-25';
/** The first and last days of next month and last month, from TODAY, as tools.py computes them. */
const NEXT_MONTH = { start: '2025-03-01', end: '2025-03-31', due: '2025-03-15' };
const LAST_MONTH = { start: '2025-01-01', end: '2025-01-31', due: '2025-01-15' };
/** get_data_usage's cycle end: the day before the first of next month. */
const CYCLE_END = '2025-02-28';

type Row = PyModel;
export type TelecomDb = PyModel & { plans: Row[]; customers: Row[]; lines: Row[]; bills: Row[]; devices: Row[] };
type Args = Record<string, PyValue>;

/** τ² makes `B` + 8 hex digits of a uuid4. */
export function randomBillId(): string {
  return `B${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`;
}

function findIn(rows: Row[], key: string, id: PyValue, what: string): Row {
  const row = rows.find((r) => pyEquals(r[key], id));
  if (!row) throw valueError(`${what} ${pyStr(id)} not found`);
  return row;
}

/** `sequence[:limit]` with Python's slicing for an int (negative counts from the end). */
function sliceTo<T>(items: T[], limit: PyValue): T[] {
  if (limit === null) return items;
  if (typeof limit === 'boolean') return items.slice(0, Number(limit));
  if (typeof limit !== 'number') throw typeError('slice indices must be integers or None or have an __index__ method');
  return items.slice(0, limit);
}

/** What suspend_line and resume_line answer: {"message": …, "line": the line as it is now}. */
function lineChanged(message: string, line: PyValue): PyValue {
  return new Map<string, PyValue>([
    ['message', message],
    ['line', line],
  ]);
}

export class TelecomTools extends Toolkit<TelecomDb> {
  readonly className = 'TelecomTools';

  constructor(
    db: TelecomDb,
    readonly newBillId: () => string = randomBillId,
  ) {
    super(db);
  }

  customerById(id: PyValue): Row {
    return findIn(this.db.customers, 'customer_id', id, 'Customer with ID');
  }
  lineById(id: PyValue): Row {
    return findIn(this.db.lines, 'line_id', id, 'Line with ID');
  }
  lineByPhone(phone: PyValue): Row {
    return findIn(this.db.lines, 'phone_number', phone, 'Line with phone number');
  }
  planById(id: PyValue): Row {
    return findIn(this.db.plans, 'plan_id', id, 'Plan with ID');
  }
  billById(id: PyValue): Row {
    return findIn(this.db.bills, 'bill_id', id, 'Bill with ID');
  }
  #device(id: PyValue): Row {
    return findIn(this.db.devices, 'device_id', id, 'Device with ID');
  }

  customerByPhone(phone: PyValue): Row {
    for (const customer of this.db.customers) {
      if (pyEquals(customer.phone_number, phone)) return customer;
      for (const lineId of customer.line_ids as string[]) {
        if (pyEquals(this.lineById(lineId).phone_number, phone)) return customer;
      }
    }
    throw valueError(`Customer with phone number ${pyStr(phone)} not found`);
  }

  #targetLine(customerId: PyValue, lineId: PyValue): Row {
    const customer = this.customerById(customerId);
    if (!(customer.line_ids as PyValue[]).some((id) => pyEquals(id, lineId))) throw valueError(`Line ${pyStr(lineId)} not found for customer ${pyStr(customerId)}`);
    return this.lineById(lineId);
  }

  billsAwaitingPayment(customer: Row): Row[] {
    return (customer.bill_ids as string[]).map((id) => this.billById(id)).filter((bill) => bill.status === BILL_STATUS.awaitingPayment);
  }

  setBillToPaid(billId: PyValue): void {
    this.billById(billId).status = BILL_STATUS.paid;
  }

  #applyOneTimeCharge(customerId: PyValue, amount: PyFloat | number, description: string): void {
    const customer = this.customerById(customerId);
    let draft = (customer.bill_ids as string[]).map((id) => this.billById(id)).find((bill) => bill.status === BILL_STATUS.draft);
    if (!draft) {
      const id = this.newBillId();
      draft = construct(Bill, {
        bill_id: id,
        customer_id: customerId,
        period_start: NEXT_MONTH.start,
        period_end: NEXT_MONTH.end,
        issue_date: NEXT_MONTH.start,
        total_due: 0,
        due_date: NEXT_MONTH.due,
        status: BILL_STATUS.draft,
      });
      this.db.bills.push(draft);
      (customer.bill_ids as string[]).push(id);
    }
    const negative = (numberOf(amount) ?? 0) < 0;
    (draft.line_items as PyValue[]).push(construct(LineItem, { description, amount, date: TODAY, item_type: negative ? 'Credit' : 'Charge' }));
    draft.total_due = pyAdd(draft.total_due as PyFloat, amount);
  }

  readonly functions: Readonly<Record<string, ToolFunction<TelecomTools>>> = {
    get_customer_by_phone: fn(['phone_number'], (kit, a) => kit.customerByPhone(a.phone_number!), 'read'),
    get_customer_by_id: fn(['customer_id'], (kit, a) => kit.customerById(a.customer_id!), 'read'),
    get_customer_by_name: fn(
      ['full_name', 'dob'],
      (kit, a) => kit.db.customers.filter((c) => lower(c.full_name!) === lower(a.full_name!) && pyEquals(c.date_of_birth, a.dob!)),
      'read',
    ),
    get_details_by_id: fn(['id'], (kit, a) => kit.#detailsById(a.id!), 'read'),
    suspend_line: fn(['customer_id', 'line_id', 'reason'], (kit, a) => kit.#suspend(a), 'write'),
    resume_line: fn(['customer_id', 'line_id'], (kit, a) => kit.#resume(a), 'write'),
    get_bills_for_customer: fn(['customer_id', { name: 'limit', default: () => 12 }], (kit, a) => kit.#bills(a), 'read'),
    send_payment_request: fn(['customer_id', 'bill_id'], (kit, a) => kit.#sendPaymentRequest(a), 'write'),
    get_data_usage: fn(['customer_id', 'line_id'], (kit, a) => kit.#dataUsage(a), 'read'),
    enable_roaming: fn(['customer_id', 'line_id'], (kit, a) => kit.#setRoaming(a, true), 'write'),
    disable_roaming: fn(['customer_id', 'line_id'], (kit, a) => kit.#setRoaming(a, false), 'write'),
    transfer_to_human_agents: fn(['summary'], () => 'Transfer successful', 'generic'),
    refuel_data: fn(['customer_id', 'line_id', 'gb_amount'], (kit, a) => kit.#refuel(a), 'write'),
    // Not tools: scenario set-up and assertions (tasks' initialization_actions, env_assertions).
    set_data_usage: fn(['customer_id', 'line_id', 'data_used_gb'], (kit, a) => {
      kit.#targetLine(a.customer_id!, a.line_id!).data_used_gb = a.data_used_gb!;
      return `Data usage set to ${pyStr(a.data_used_gb!)} GB for line ${pyStr(a.line_id!)}`;
    }),
    suspend_line_for_overdue_bill: fn(['customer_id', 'line_id', 'new_bill_id', 'contract_ended'], (kit, a) => kit.#suspendForOverdueBill(a)),
    assert_data_refueling_amount: fn(['customer_id', 'line_id', 'expected_amount'], (kit, a) => {
      const refueled = numberOf(kit.#targetLine(a.customer_id!, a.line_id!).data_refueling_gb!) ?? 0;
      return Math.abs(refueled - (numberOf(a.expected_amount!) ?? NaN)) < 1e-6;
    }),
    assert_line_status: fn(['customer_id', 'line_id', 'expected_status'], (kit, a) => pyEquals(kit.#targetLine(a.customer_id!, a.line_id!).status, a.expected_status!)),
    assert_overdue_bill_exists: fn(['customer_id', 'overdue_bill_id'], (kit, a) => {
      const customer = kit.customerById(a.customer_id!);
      if (!(customer.bill_ids as PyValue[]).some((id) => pyEquals(id, a.overdue_bill_id!))) throw valueError(`Overdue bill ${pyStr(a.overdue_bill_id!)} not found`);
      if (kit.billById(a.overdue_bill_id!).status !== BILL_STATUS.overdue) throw valueError(`Overdue bill ${pyStr(a.overdue_bill_id!)} is not overdue`);
      return true;
    }),
    assert_no_overdue_bill: fn(['overdue_bill_id'], (kit, a) => {
      const bill = kit.db.bills.find((b) => pyEquals(b.bill_id, a.overdue_bill_id!));
      return !bill || bill.status === BILL_STATUS.paid;
    }),
  };

  #detailsById(id: PyValue): Row {
    if (startsWith(id, 'L')) return this.lineById(id);
    if (startsWith(id, 'D')) return this.#device(id);
    if (startsWith(id, 'B')) return this.billById(id);
    if (startsWith(id, 'C')) return this.customerById(id);
    if (startsWith(id, 'P')) return this.planById(id);
    throw valueError(`Unknown ID format or type: ${pyStr(id)}`);
  }

  #suspend(a: Args): PyValue {
    const line = this.#targetLine(a.customer_id!, a.line_id!);
    if (line.status !== LINE_STATUS.active) throw valueError('Line must be active to suspend');
    line.status = LINE_STATUS.suspended;
    line.suspension_start_date = TODAY;
    return lineChanged('Line suspended successfully. $5/month holding fee will apply.', line);
  }

  #resume(a: Args): PyValue {
    const line = this.#targetLine(a.customer_id!, a.line_id!);
    if (line.status !== LINE_STATUS.suspended && line.status !== LINE_STATUS.pendingActivation) throw valueError('Line must be suspended to resume');
    line.status = LINE_STATUS.active;
    line.suspension_start_date = null;
    return lineChanged('Line resumed successfully', line);
  }

  #bills(a: Args): PyValue {
    const customer = this.customerById(a.customer_id!);
    const bills = (customer.bill_ids as string[]).map((id) => this.billById(id));
    // sorted(..., reverse=True) is stable: equal dates keep their order.
    const sortedBills = bills
      .map((bill, index) => ({ bill, index }))
      .sort((x, y) => ((x.bill.issue_date as string) < (y.bill.issue_date as string) ? 1 : (x.bill.issue_date as string) > (y.bill.issue_date as string) ? -1 : x.index - y.index))
      .map((x) => x.bill);
    return sliceTo(sortedBills, a.limit!);
  }

  #sendPaymentRequest(a: Args): string {
    const customer = this.customerById(a.customer_id!);
    if (this.billsAwaitingPayment(customer).length !== 0) throw valueError('A bill is already awaiting payment for this customer');
    if (!(customer.bill_ids as PyValue[]).some((id) => pyEquals(id, a.bill_id!))) throw valueError(`Bill ${pyStr(a.bill_id!)} not found for customer ${pyStr(a.customer_id!)}`);
    const bill = this.billById(a.bill_id!);
    bill.status = BILL_STATUS.awaitingPayment;
    return `Payment request sent to the customer for bill ${pyStr(bill.bill_id!)}`;
  }

  #dataUsage(a: Args): PyValue {
    const line = this.#targetLine(a.customer_id!, a.line_id!);
    const plan = this.planById(line.plan_id!);
    return new Map<string, PyValue>([
      ['line_id', a.line_id!],
      ['data_used_gb', line.data_used_gb!],
      ['data_limit_gb', plan.data_limit_gb!],
      ['data_refueling_gb', line.data_refueling_gb!],
      ['cycle_end_date', CYCLE_END],
    ]);
  }

  #setRoaming(a: Args, enable: boolean): string {
    const line = this.#targetLine(a.customer_id!, a.line_id!);
    if (line.roaming_enabled === enable) return `Roaming was already ${enable ? 'enabled' : 'disabled'}`;
    line.roaming_enabled = enable;
    return `Roaming ${enable ? 'enabled' : 'disabled'} successfully`;
  }

  #refuel(a: Args): PyValue {
    const line = this.#targetLine(a.customer_id!, a.line_id!);
    const amount = a.gb_amount!;
    if (less(amount, 0, true)) throw valueError('Refuel amount must be positive');
    const plan = this.planById(line.plan_id!);
    const price = plan.data_refueling_price_per_gb as PyFloat;
    const numeric = typeof amount === 'boolean' ? Number(amount) : (amount as number | PyFloat);
    const charge = pyMul(numeric, price);
    line.data_refueling_gb = pyAdd(line.data_refueling_gb as PyFloat, numeric);
    this.#applyOneTimeCharge(a.customer_id!, charge, `Data refueling: ${pyStr(amount)} GB at $${pyStr(price)}/GB`);
    const chargeText = formatFixed(numberOf(charge)!, 2);
    return new Map<string, PyValue>([
      ['message', `Successfully added ${pyStr(amount)} GB of data for line ${pyStr(a.line_id!)} for $${chargeText}`],
      ['new_data_refueling_gb', line.data_refueling_gb],
      ['charge', charge],
    ]);
  }

  #suspendForOverdueBill(a: Args): string {
    const line = this.lineById(a.line_id!);
    if (line.status !== LINE_STATUS.active) throw valueError('Line must be active to suspend for unpaid bill');
    const plan = this.planById(line.plan_id!);
    const amount = plan.price_per_month as PyFloat;
    if (amount.value <= 0) throw valueError('Amount must be positive for overdue bill');
    const customer = this.customerById(a.customer_id!);
    if ((customer.bill_ids as string[]).some((id) => this.billById(id).status === BILL_STATUS.overdue)) throw valueError('Customer already has an overdue bill');
    const bill = construct(Bill, {
      bill_id: a.new_bill_id!,
      customer_id: a.customer_id!,
      period_start: LAST_MONTH.start,
      period_end: LAST_MONTH.end,
      issue_date: LAST_MONTH.start,
      total_due: 0,
      due_date: LAST_MONTH.due,
      status: BILL_STATUS.overdue,
    });
    (bill.line_items as PyValue[]).push(construct(LineItem, { description: `Charge for line ${pyStr(line.line_id!)}`, amount, date: TODAY, item_type: 'Charge' }));
    bill.total_due = pyAdd(bill.total_due as PyFloat, amount);
    this.db.bills.push(bill);
    (customer.bill_ids as PyValue[]).push(a.new_bill_id!);
    line.status = LINE_STATUS.suspended;
    line.suspension_start_date = TODAY;
    if (pyTruthy(a.contract_ended!)) line.contract_end_date = LAST_MONTH.end;
    return `Line ${pyStr(a.line_id!)} suspended for unpaid bill ${pyStr(a.new_bill_id!)}. Contract ended: ${pyStr(a.contract_ended!)}`;
  }
}

