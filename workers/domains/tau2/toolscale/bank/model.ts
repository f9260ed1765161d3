// ToolScale bank's data model (tau2/domains/bank/data_model.py), field by field in its order.
// Pure TypeScript.

import { t } from '../../model.ts';
import type { PyFloat, PyModel, PyValue } from '../../pyValues.ts';
import { database, opt, shape, withDefault } from '../common.ts';

const choice = (...values: string[]) => t.choice(values);
const METHOD = choice('ACH', 'Wire', 'Card', 'ATM', 'Internal');

export const BankAddress = shape('BankAddress', { address1: t.str, address2: t.str, city: t.str, state: t.str, zip: t.str, country: t.str });
const ClientName = shape('ClientName', { first_name: t.str, last_name: t.str, middle_name: opt(t.str) });
const ClientContact = shape('ClientContact', { email: t.str, phone: t.str });
const AccountBalance = shape('AccountBalance', { current: t.float, available: t.float, on_hold: t.float });
const AccountFeatures = shape('AccountFeatures', { checks_enabled: t.bool, atm_access: t.bool, online_banking: t.bool });
export const Account = shape('Account', {
  account_id: t.str,
  type: choice('checking', 'savings', 'credit'),
  currency: t.str,
  status: choice('active', 'frozen', 'closed'),
  account_number_masked: t.str,
  routing_number: t.str,
  balance: t.model(AccountBalance),
  interest_rate_apr: opt(t.float),
  overdraft_limit: opt(t.float),
  opened_at: t.str,
  features: t.model(AccountFeatures),
});
const CardExtraInfo = shape('CardExtraInfo', { brand: t.str, last_four: t.str, exp_month: t.str, exp_year: t.str });
const CardLimits = shape('CardLimits', { daily_atm_limit: t.float, daily_pos_limit: t.float });
const Card = shape('Card', {
  card_id: t.str,
  type: choice('debit', 'credit'),
  linked_account_id: t.str,
  status: choice('active', 'blocked', 'expired'),
  issuer: t.str,
  extra_info: t.model(CardExtraInfo),
  limits: t.model(CardLimits),
  pin_set: t.bool,
});
const KYCInfo = shape('KYCInfo', { status: choice('pending', 'verified', 'failed'), last_reviewed_at: t.str, tax_id_masked: t.str });
const MerchantInfo = shape('MerchantInfo', { name: t.str, mcc: t.str, city: t.str, country: t.str });
const ExchangeInfo = shape('ExchangeInfo', { source_currency: t.str, target_currency: t.str, rate: t.float, source_amount: t.float, target_amount: t.float });
const TransactionFee = shape('TransactionFee', { type: t.str, amount: t.float, currency: t.str });
const TransactionHold = shape('TransactionHold', { is_hold: t.bool, release_at: opt(t.str), reason: opt(t.str) });
export const Transaction = shape('Transaction', {
  transaction_id: t.str,
  client_id: t.str,
  account_id: t.str,
  timestamp: t.str,
  type: choice('deposit', 'withdrawal', 'transfer', 'payment', 'fee', 'interest'),
  direction: choice('debit', 'credit'),
  amount: t.float,
  currency: t.str,
  description: opt(t.str),
  method: METHOD,
  status: choice('pending', 'posted', 'reversed'),
  merchant: opt(t.model(MerchantInfo)),
  related_transaction_id: opt(t.str),
  exchange: opt(t.model(ExchangeInfo)),
  fees: withDefault(t.list(t.model(TransactionFee)), () => []),
  hold: opt(t.model(TransactionHold)),
  balance_after: opt(t.float),
});
const Collateral = shape('Collateral', { type: choice('real_estate', 'vehicle', 'unsecured', 'other'), description: t.str, value_amount: t.float, value_currency: t.str });
const LoanPaymentScheduleEntry = shape('LoanPaymentScheduleEntry', {
  due_date: t.str,
  amount: t.float,
  currency: t.str,
  status: choice('due', 'paid', 'late', 'deferred'),
  transaction_id: opt(t.str),
});
export const LoanRepaymentHistoryEntry = shape('LoanRepaymentHistoryEntry', {
  transaction_id: t.str,
  posted_at: t.str,
  amount: t.float,
  currency: t.str,
  method: METHOD,
  principal_component: t.float,
  interest_component: t.float,
  fees_component: t.float,
});
const EscrowAccount = shape('EscrowAccount', { account_id: t.str, balance: t.float, currency: t.str });
const Loan = shape('Loan', {
  loan_id: t.str,
  client_id: t.str,
  linked_repayment_account_id: t.str,
  type: choice('mortgage', 'auto', 'personal', 'credit_line'),
  principal: t.float,
  currency: t.str,
  interest_rate_apr: t.float,
  amortization: choice('fixed', 'interest_only', 'balloon'),
  term_months: t.int,
  origination_date: t.str,
  first_payment_date: t.str,
  maturity_date: t.str,
  status: choice('active', 'closed', 'delinquent', 'default'),
  collateral: opt(t.model(Collateral)),
  payment_schedule: t.list(t.model(LoanPaymentScheduleEntry)),
  repayment_history: t.list(t.model(LoanRepaymentHistoryEntry)),
  escrow: opt(t.model(EscrowAccount)),
});
export const BeneficiaryName = shape('BeneficiaryName', { display_name: opt(t.str), first_name: opt(t.str), last_name: opt(t.str), business_name: opt(t.str) });
export const BankDetails = shape('BankDetails', {
  bank_name: t.str,
  account_number_masked: t.str,
  routing_number: opt(t.str),
  iban: opt(t.str),
  swift_bic: opt(t.str),
});
export const TransferLimits = shape('TransferLimits', { per_transfer_limit: t.float, daily_limit: t.float });
export const BeneficiaryVerification = shape('BeneficiaryVerification', {
  status: choice('pending', 'verified', 'failed'),
  method: choice('micro_deposits', 'document', 'instant'),
  verified_at: opt(t.str),
});
export const Beneficiary = shape('Beneficiary', {
  beneficiary_id: t.str,
  client_id: t.str,
  name: t.model(BeneficiaryName),
  type: choice('individual', 'business'),
  bank_details: t.model(BankDetails),
  address: t.model(BankAddress),
  allowed_from_account_ids: t.list(t.str),
  transfer_limits: t.model(TransferLimits),
  verification: t.model(BeneficiaryVerification),
  status: choice('active', 'suspended', 'revoked'),
  created_at: t.str,
  notes: opt(t.str),
});
const Client = shape('Client', {
  client_id: t.str,
  name: t.model(ClientName),
  contact: t.model(ClientContact),
  address: t.model(BankAddress),
  accounts: t.dict(t.model(Account)),
  cards: t.dict(t.model(Card)),
  loan_ids: t.list(t.str),
  beneficiary_ids: t.list(t.str),
  created_at: t.str,
  kyc: t.model(KYCInfo),
});
export const BankDbSchema = database('BankDB', { clients: Client, transactions: Transaction, loans: Loan, beneficiaries: Beneficiary });

// The shapes the tools read and write (a model's dump form).
export type Money = PyFloat | number;
export type AccountValue = PyModel & {
  account_id: string;
  type: string;
  currency: string;
  status: string;
  account_number_masked: string;
  balance: PyModel & { current: Money; available: Money };
};
export type CardValue = PyModel & { status: string };
export type ClientValue = PyModel & {
  client_id: string;
  contact: { email: PyValue };
  accounts: Map<string, PyValue>;
  cards: Map<string, PyValue>;
  beneficiary_ids: PyValue[];
};
export type TransactionValue = PyModel & { account_id: PyValue; timestamp: PyValue; amount: Money; type: PyValue; status: PyValue; merchant: PyValue; currency: PyValue; method: PyValue };
export type LoanValue = PyModel & { client_id: PyValue; repayment_history: PyValue[] };
export type BeneficiaryValue = PyModel & {
  beneficiary_id: string;
  name: { display_name: PyValue; first_name: PyValue; last_name: PyValue; business_name: PyValue };
  status: PyValue;
  verification: PyModel & { status: PyValue; method: PyValue; verified_at: PyValue };
  allowed_from_account_ids: PyValue[];
  transfer_limits: { per_transfer_limit: Money };
};
export type BankDb = { clients: Map<string, PyValue>; transactions: Map<string, PyValue>; loans: Map<string, PyValue>; beneficiaries: Map<string, PyValue> };
