// ToolScale bank's tools (tau2/domains/bank/tools.py), ported call for call: the same checks in
// the same order, the same errors and results, and the same quirks. Among them: a transaction id
// is `tx_` and the table's size plus one, so an internal transfer's two transactions get the
// same id and the second replaces the first; a transfer or loan payment updates the balances
// before it validates the method, so a refused method still moves the money; `verify_beneficiary`
// stores any method it is given. Timestamps come from `now` (the wall clock, as in tools.py,
// unless a test fixes it or a rollout's grading replays its times: tau2/rolloutClock.ts). Pure
// TypeScript.

import { construct } from '../../model.ts';
import { typeError, valueError } from '../../pyErrors.ts';
import { pyJsonDumps } from '../../pyJson.ts';
import { arith, compare, contains, iterate, lookup, lower } from '../../pyOps.ts';
import { compareCodePoints, numberOf, PyFloat, pyEquals, pyRound, pyStr, pyTruthy, pyTypeName, type PyModel, type PyValue } from '../../pyValues.ts';
import { type TableSeed, TableToolkit } from '../../tableSeed.ts';
import { fn, type ToolFunction } from '../../toolkit.ts';
import { type Args, calculateTool, findIdByEmail, optional, transferTool } from '../common.ts';
import {
  BankAddress,
  BankDetails,
  Beneficiary,
  BeneficiaryName,
  BeneficiaryVerification,
  LoanRepaymentHistoryEntry,
  Transaction,
  TransferLimits,
  type AccountValue,
  type BankDb,
  type BeneficiaryValue,
  type CardValue,
  type ClientValue,
  type LoanValue,
  type TransactionValue,
} from './model.ts';

/** `datetime.utcnow().isoformat(timespec="seconds") + "Z"`. */
export const isoSeconds = (date: Date): string => `${date.toISOString().slice(0, 19)}Z`;

/** `max(0, limit)` used as a slice end, with Python's errors for what cannot be one. */
function sliceEnd(limit: PyValue): number {
  const n = typeof limit === 'boolean' ? Number(limit) : numberOf(limit);
  if (n === undefined) throw typeError(`'>' not supported between instances of '${pyTypeName(limit)}' and 'int'`);
  if (!(n > 0)) return 0;
  if (limit instanceof PyFloat) throw typeError('slice indices must be integers or None or have an __index__ method');
  return n;
}

/** `list.sort(key=lambda t: t.timestamp, reverse=True)`: stable, newest first. */
const newestFirst = (a: TransactionValue, b: TransactionValue) => compareCodePoints(b.timestamp as string, a.timestamp as string);

export class BankTools extends TableToolkit<BankDb> {
  readonly className = 'BankTools';

  constructor(
    seed: TableSeed<BankDb>,
    readonly now: () => Date = () => new Date(),
  ) {
    super(seed);
  }

  readonly #client = this.rowsOf<ClientValue>('clients', 'Client not found');

  #accountById(id: PyValue): [string, AccountValue] {
    for (const [cid, client] of this.db.clients) {
      const account = lookup((client as ClientValue).accounts, id);
      if (account !== undefined) return [cid, account as AccountValue];
    }
    throw valueError('Account not found');
  }

  #cardById(id: PyValue): [string, CardValue] {
    for (const [cid, client] of this.db.clients) {
      const card = lookup((client as ClientValue).cards, id);
      if (card !== undefined) return [cid, card as CardValue];
    }
    throw valueError('Card not found');
  }

  #timestamp(): string {
    return isoSeconds(this.now());
  }

  #newTransactionId(): string {
    return `tx_${String(this.db.transactions.size + 1).padStart(7, '0')}`;
  }

  #assertActive(account: AccountValue): void {
    if (account.status !== 'active') throw valueError('Account is not active');
  }

  #assertOwnsBeneficiary(clientId: PyValue, beneficiaryId: PyValue): void {
    if (!contains(this.#client(clientId).beneficiary_ids, beneficiaryId)) throw valueError('Beneficiary not owned by this client');
  }

  #assertPositive(amount: PyValue): void {
    if (compare(amount, 0, '<=')) throw valueError('Amount must be greater than zero');
  }

  /** Takes `amount` from an account the rollout owns: `round(balance - amount, 2)` for both balances. */
  #debit(account: AccountValue, amount: PyValue): void {
    account.balance.available = pyRound(arith('-', account.balance.available, amount), 2);
    account.balance.current = pyRound(arith('-', account.balance.current, amount), 2);
  }

  #saveTransaction(values: Args): TransactionValue {
    const tx = construct<TransactionValue>(Transaction, values);
    this.db.transactions.set(values.transaction_id as string, tx);
    return tx;
  }

  readonly functions: Readonly<Record<string, ToolFunction<BankTools>>> = {
    calculate: calculateTool,
    transfer_to_human_agents: transferTool,
    find_client_id_by_email: fn(['email'], (kit, a) => findIdByEmail(kit.db.clients, (c) => (c as ClientValue).contact.email, a.email!, 'Client not found'), 'read'),
    get_client_details: fn(['client_id'], (kit, a) => kit.#client(a.client_id!), 'read'),
    get_account_details: fn(['account_id'], (kit, a) => kit.#accountById(a.account_id!)[1], 'read'),
    get_card_details: fn(['card_id'], (kit, a) => kit.#cardById(a.card_id!)[1], 'read'),
    get_loan_details: fn(['loan_id'], (kit, a) => kit.row('loans', a.loan_id!, 'Loan not found'), 'read'),
    get_beneficiary_details: fn(['beneficiary_id'], (kit, a) => kit.row('beneficiaries', a.beneficiary_id!, 'Beneficiary not found'), 'read'),
    list_client_accounts: fn(['client_id'], (kit, a) => kit.#listAccounts(a.client_id!), 'read'),
    list_client_beneficiaries: fn(['client_id'], (kit, a) => kit.#listBeneficiaries(a.client_id!), 'read'),
    get_recent_transactions: fn(['account_id', { name: 'limit', default: () => 10 }], (kit, a) => kit.#recentTransactions(a), 'read'),
    search_transactions: fn(
      ['client_id', 'account_id', ...['start_date', 'end_date', 'min_amount', 'max_amount', 'transaction_type', 'status', 'merchant_name_contains'].map(optional)],
      (kit, a) => kit.#searchTransactions(a),
      'read',
    ),
    initiate_internal_transfer: fn(['client_id', 'from_account_id', 'to_account_id', 'amount', optional('description')], (kit, a) => kit.#internalTransfer(a), 'write'),
    add_beneficiary: fn([...ADD_BENEFICIARY_PARAMS, { name: 'verification_method', default: () => 'document' }], (kit, a) => kit.#addBeneficiary(a), 'write'),
    verify_beneficiary: fn(['client_id', 'beneficiary_id', { name: 'method', default: () => 'document' }], (kit, a) => kit.#verifyBeneficiary(a), 'write'),
    initiate_transfer_to_beneficiary: fn(
      ['client_id', 'from_account_id', 'beneficiary_id', 'amount', { name: 'method', default: () => 'ACH' }, optional('description')],
      (kit, a) => kit.#transferToBeneficiary(a),
      'write',
    ),
    freeze_card: fn(['card_id', 'reason'], (kit, a) => kit.#setCardStatus(a.card_id!, 'blocked'), 'write'),
    unfreeze_card: fn(['card_id'], (kit, a) => kit.#setCardStatus(a.card_id!, 'active'), 'write'),
    freeze_account: fn(['account_id', 'reason'], (kit, a) => kit.#setAccountStatus(a.account_id!, 'frozen', 'Account is closed and cannot be frozen'), 'write'),
    unfreeze_account: fn(['account_id'], (kit, a) => kit.#setAccountStatus(a.account_id!, 'active', 'Account is closed and cannot be unfrozen'), 'write'),
    make_loan_payment: fn(
      ['client_id', 'loan_id', 'from_account_id', 'amount', { name: 'method', default: () => 'Internal' }, optional('description')],
      (kit, a) => kit.#loanPayment(a),
      'write',
    ),
  };

  #listAccounts(clientId: PyValue): string {
    const summary = new Map<string, PyValue>();
    for (const [id, value] of this.#client(clientId).accounts) {
      const account = value as AccountValue;
      summary.set(id, new Map<string, PyValue>([
        ['type', account.type],
        ['status', account.status],
        ['masked', account.account_number_masked],
        ['currency', account.currency],
      ]));
    }
    return pyJsonDumps(summary, { sortKeys: true });
  }

  #listBeneficiaries(clientId: PyValue): string {
    const result = new Map<string, PyValue>();
    for (const id of this.#client(clientId).beneficiary_ids) {
      const b = lookup(this.db.beneficiaries, id) as BeneficiaryValue | undefined;
      if (b === undefined) continue;
      const { display_name, business_name, first_name, last_name } = b.name;
      const joined = [first_name, last_name].filter(pyTruthy).map(pyStr).join(' ');
      result.set(id as string, [display_name, business_name, joined].find(pyTruthy) ?? 'Unnamed Beneficiary');
    }
    return pyJsonDumps(result, { sortKeys: true });
  }

  #recentTransactions(a: Args): TransactionValue[] {
    this.#accountById(a.account_id!);
    const txs = [...this.db.transactions.values()]
      .map((tx) => tx as TransactionValue)
      .filter((tx) => pyEquals(tx.account_id, a.account_id!) && (tx.status === 'posted' || tx.status === 'pending'))
      .sort(newestFirst);
    return txs.slice(0, sliceEnd(a.limit!));
  }

  #searchTransactions(a: Args): TransactionValue[] {
    const client = this.#client(a.client_id!);
    if (lookup(client.accounts, a.account_id!) === undefined) throw valueError('Account not found for this client');
    const { start_date: start, end_date: end, min_amount: min, max_amount: max, transaction_type: type, status } = a;
    const merchant = pyTruthy(a.merchant_name_contains) ? lower(a.merchant_name_contains!) : null;
    const results: TransactionValue[] = [];
    for (const value of this.db.transactions.values()) {
      const tx = value as TransactionValue;
      if (!pyEquals(tx.account_id, a.account_id!)) continue;
      if (pyTruthy(start) && compare(tx.timestamp, start!, '<')) continue;
      if (pyTruthy(end) && compare(tx.timestamp, end!, '>')) continue;
      if (min !== null && compare(tx.amount, min!, '<')) continue;
      if (max !== null && compare(tx.amount, max!, '>')) continue;
      if (pyTruthy(type) && !pyEquals(tx.type, type!)) continue;
      if (pyTruthy(status) && !pyEquals(tx.status, status!)) continue;
      if (merchant) {
        const name = (tx.merchant as PyModel | null)?.name;
        const text = tx.merchant !== null && pyTruthy(name) ? lower(name!) : '';
        if (!text.includes(merchant)) continue;
      }
      results.push(tx);
    }
    return results.sort(newestFirst);
  }

  #internalTransfer(a: Args): TransactionValue[] {
    const { client_id: clientId, from_account_id: fromId, to_account_id: toId, amount } = a as Record<string, PyValue>;
    this.#assertPositive(amount!);
    const client = this.#client(clientId!);
    if (lookup(client.accounts, fromId!) === undefined || lookup(client.accounts, toId!) === undefined) throw valueError('Both accounts must belong to the same client');
    const from = client.accounts.get(fromId as string) as AccountValue;
    const to = client.accounts.get(toId as string) as AccountValue;
    this.#assertActive(from);
    this.#assertActive(to);
    if (from.type === 'credit') throw valueError('Transfers from a credit account are not supported');
    if (from.currency !== to.currency) throw valueError('Cross-currency internal transfers are not supported');
    if (compare(from.balance.available, amount!, '<')) throw valueError('Insufficient available balance');
    const timestamp = this.#timestamp();
    const owned = this.own<ClientValue>('clients', client.client_id);
    const ownFrom = owned.accounts.get(fromId as string) as AccountValue;
    const ownTo = owned.accounts.get(toId as string) as AccountValue;
    this.#debit(ownFrom, amount!);
    ownTo.balance.available = pyRound(arith('+', ownTo.balance.available, amount!), 2);
    ownTo.balance.current = pyRound(arith('+', ownTo.balance.current, amount!), 2);
    const common = { client_id: clientId!, timestamp, type: 'transfer', amount: roundAmount(amount!), currency: from.currency, method: 'Internal', status: 'posted' };
    // The two legs' ids are taken before either is stored, as the reference's are.
    const leg = (accountId: PyValue, direction: string, description: PyValue, related: PyValue, balanceAfter: PyValue) => {
      const id = this.#newTransactionId();
      const fields = { transaction_id: id, account_id: accountId, direction, description, related_transaction_id: related, balance_after: balanceAfter };
      return { id, row: construct<TransactionValue>(Transaction, { ...common, ...fields }) };
    };
    const given = pyTruthy(a.description) ? a.description! : undefined;
    const out = leg(fromId!, 'debit', given ?? `Internal transfer to ${pyStr(toId)}`, null, ownFrom.balance.current);
    const into = leg(toId!, 'credit', given ?? `Internal transfer from ${pyStr(fromId)}`, out.id, ownTo.balance.current);
    out.row.related_transaction_id = into.id;
    this.db.transactions.set(out.id, out.row);
    this.db.transactions.set(into.id, into.row);
    return [out.row, into.row];
  }

  #addBeneficiary(a: Args): BeneficiaryValue {
    const client = this.#client(a.client_id!);
    for (const id of iterate(a.allowed_from_account_ids!)) {
      if (lookup(client.accounts, id) === undefined) throw valueError(`Allowed account ${pyStr(id)} does not belong to client`);
    }
    const pick = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, a[k]!]));
    const name = construct(BeneficiaryName, pick('display_name', 'first_name', 'last_name', 'business_name'));
    const bankDetails = construct(BankDetails, pick('bank_name', 'account_number_masked', 'routing_number', 'iban', 'swift_bic'));
    const address = construct(BankAddress, pick('address1', 'address2', 'city', 'state', 'zip', 'country'));
    const limits = construct(TransferLimits, pick('per_transfer_limit', 'daily_limit'));
    const verification = construct(BeneficiaryVerification, { status: 'pending', method: a.verification_method!, verified_at: null });
    const beneficiary = construct<BeneficiaryValue>(Beneficiary, {
      beneficiary_id: a.beneficiary_id!,
      client_id: a.client_id!,
      name,
      type: a.beneficiary_type!,
      bank_details: bankDetails,
      address,
      allowed_from_account_ids: a.allowed_from_account_ids!,
      transfer_limits: limits,
      verification,
      status: 'active',
      created_at: this.#timestamp(),
      notes: null,
    });
    this.adopt('beneficiaries', beneficiary.beneficiary_id, beneficiary);
    if (!contains(client.beneficiary_ids, beneficiary.beneficiary_id)) this.own<ClientValue>('clients', client.client_id).beneficiary_ids.push(beneficiary.beneficiary_id);
    return beneficiary;
  }

  #verifyBeneficiary(a: Args): BeneficiaryValue {
    this.#assertOwnsBeneficiary(a.client_id!, a.beneficiary_id!);
    this.row('beneficiaries', a.beneficiary_id!, 'Beneficiary not found');
    const b = this.own<BeneficiaryValue>('beneficiaries', a.beneficiary_id as string);
    b.verification.status = 'verified';
    b.verification.method = a.method!;
    b.verification.verified_at = this.#timestamp();
    return b;
  }

  #transferToBeneficiary(a: Args): TransactionValue {
    const client = this.#sourceClient(a);
    this.#assertActive(client.accounts.get(a.from_account_id as string) as AccountValue);
    this.#assertOwnsBeneficiary(a.client_id!, a.beneficiary_id!);
    const b = this.row<BeneficiaryValue>('beneficiaries', a.beneficiary_id!, 'Beneficiary not found');
    if (b.status !== 'active') throw valueError('Beneficiary is not active');
    if (b.verification.status !== 'verified') throw valueError('Beneficiary must be verified before transfers');
    if (!contains(b.allowed_from_account_ids, a.from_account_id!)) throw valueError('This account is not authorized for transfers to the beneficiary');
    if (compare(a.amount!, b.transfer_limits.per_transfer_limit, '>')) throw valueError('Amount exceeds per-transfer limit for beneficiary');
    const name = pyTruthy(b.name.display_name) ? b.name.display_name : b.beneficiary_id;
    return this.#debitTransaction(a, client, 'transfer', `Transfer to beneficiary ${pyStr(name)}`);
  }

  /** The checks a payment out of an account starts with: a positive amount, the client, the account theirs. */
  #sourceClient(a: Args): ClientValue {
    this.#assertPositive(a.amount!);
    const client = this.#client(a.client_id!);
    if (lookup(client.accounts, a.from_account_id!) === undefined) throw valueError('Source account must belong to the client');
    return client;
  }

  /** The balance check, the debit, and the posted transaction of a transfer or a loan payment
   * (the method is validated last, so a refused one has already moved the money). */
  #debitTransaction(a: Args, client: ClientValue, type: 'transfer' | 'payment', description: string): TransactionValue {
    const account = this.#ownAccount(client, a.from_account_id!, a.amount!);
    return this.#saveTransaction({
      transaction_id: this.#newTransactionId(),
      client_id: a.client_id!,
      account_id: a.from_account_id!,
      timestamp: this.#timestamp(),
      type,
      direction: 'debit',
      amount: roundAmount(a.amount!),
      currency: account.currency,
      description: pyTruthy(a.description) ? a.description! : description,
      method: a.method!,
      status: 'posted',
      related_transaction_id: null,
      balance_after: account.balance.current,
    });
  }

  /** The available-balance check, then the debit, on the rollout's own copy of the account. */
  #ownAccount(client: ClientValue, accountId: PyValue, amount: PyValue): AccountValue {
    if (compare((client.accounts.get(accountId as string) as AccountValue).balance.available, amount, '<')) throw valueError('Insufficient available balance');
    const account = this.own<ClientValue>('clients', client.client_id).accounts.get(accountId as string) as AccountValue;
    this.#debit(account, amount);
    return account;
  }

  #setCardStatus(cardId: PyValue, status: 'blocked' | 'active'): CardValue {
    const [cid, card] = this.#cardById(cardId);
    if (card.status !== 'active' && card.status !== 'blocked') throw valueError('Card not in a manageable state');
    if (card.status === status) return card;
    const owned = this.own<ClientValue>('clients', cid).cards.get(cardId as string) as CardValue;
    owned.status = status;
    return owned;
  }

  #setAccountStatus(accountId: PyValue, status: 'frozen' | 'active', closedMessage: string): AccountValue {
    const [cid, account] = this.#accountById(accountId);
    if (account.status === 'closed') throw valueError(closedMessage);
    const owned = this.own<ClientValue>('clients', cid).accounts.get(accountId as string) as AccountValue;
    owned.status = status;
    return owned;
  }

  #loanPayment(a: Args): TransactionValue {
    const client = this.#sourceClient(a);
    const loanId = a.loan_id!;
    const loan = this.row<LoanValue>('loans', loanId, 'Loan not found');
    if (!pyEquals(loan.client_id, a.client_id!)) throw valueError('Loan does not belong to the client');
    this.#assertActive(client.accounts.get(a.from_account_id as string) as AccountValue);
    const tx = this.#debitTransaction(a, client, 'payment', `Loan payment ${pyStr(loanId)}`);
    this.own<LoanValue>('loans', loanId as string).repayment_history.push(
      construct(LoanRepaymentHistoryEntry, {
        transaction_id: tx.transaction_id!,
        posted_at: tx.timestamp,
        amount: tx.amount,
        currency: tx.currency,
        method: tx.method,
        principal_component: tx.amount,
        interest_component: new PyFloat(0),
        fees_component: new PyFloat(0),
      }),
    );
    return tx;
  }
}

/** `round(amount, 2)` of an amount that passed the `> 0` check (a bool is an int there). */
const roundAmount = (amount: PyValue): PyValue => pyRound(typeof amount === 'boolean' ? Number(amount) : (amount as number | PyFloat), 2);

const ADD_BENEFICIARY_PARAMS = [
  'client_id',
  'beneficiary_id',
  'beneficiary_type',
  'display_name',
  'first_name',
  'last_name',
  'business_name',
  'bank_name',
  'account_number_masked',
  'routing_number',
  'iban',
  'swift_bic',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'country',
  'allowed_from_account_ids',
  'per_transfer_limit',
  'daily_limit',
];
