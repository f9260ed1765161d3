// ToolScale e-commerce's tools (tau2/domains/ecommerce/tools.py), ported call for call with the
// same errors and results. Its quirks kept: a sale is "pending" for a modification when its state
// merely contains the word, but only when it is exactly "pending" for a cancellation (the shipped
// database has no such sale); an exchange checks the new items and their stock, computes the price
// difference and then drops it (only the state changes); addresses are written without
// validation. Pure TypeScript.

import { construct } from '../../model.ts';
import { valueError } from '../../pyErrors.ts';
import { pyJsonDumps } from '../../pyJson.ts';
import { count, inSet, iterate, len, lookup, lower, zip } from '../../pyOps.ts';
import { pyEquals, pyStr, type PyModel, type PyValue } from '../../pyValues.ts';
import { TableToolkit } from '../../tableSeed.ts';
import { fn, type ToolFunction } from '../../toolkit.ts';
import { type Args, assignFields, calculateTool, findIdByEmail, findIdByNameZip, transferTool } from '../common.ts';
import { LedgerEntry, type AccountValue, type ECommerceDb, type GroupValue, type LedgerValue, type SaleValue } from './model.ts';

const LOCATION_PARAMS = ['line1', 'line2', 'municipality', 'region', 'nation', 'postal_code'];

export class ECommerceTools extends TableToolkit<ECommerceDb> {
  readonly className = 'ECommerceTools';

  readonly #sale = this.rowsOf<SaleValue>('sales', 'Sale not found');
  readonly #account = this.rowsOf<AccountValue>('accounts', 'Account not found');
  readonly #group = this.rowsOf<GroupValue>('catalogue', 'Catalogue group not found');

  #fundingSource(accountKey: PyValue, instrumentId: PyValue): { origin: string } {
    const source = lookup(this.#account(accountKey).funding_sources, instrumentId);
    if (source === undefined) throw valueError('Funding source not found');
    return source as { origin: string };
  }

  /** `_is_pending_sale`, then the sale as this rollout's own. */
  #ownPendingSale(ref: PyValue): SaleValue {
    if (!lower(this.#sale(ref).state).includes('pending')) throw valueError('Non-pending sale cannot be modified');
    return this.own('sales', ref as string);
  }

  readonly functions: Readonly<Record<string, ToolFunction<ECommerceTools>>> = {
    calculate: calculateTool,
    transfer_to_human_agents: transferTool,
    find_account_key_by_email: fn(['email'], (kit, a) => findIdByEmail(kit.db.accounts, (row) => (row as AccountValue).contact_email, a.email!, 'Account not found'), 'read'),
    find_account_key_by_name_zip: fn(['given', 'family', 'postal_code'], (kit, a) => kit.#findByNameZip(a), 'read'),
    get_sale_details: fn(['sale_ref'], (kit, a) => kit.#sale(a.sale_ref!), 'read'),
    get_catalogue_group_details: fn(['group_ref'], (kit, a) => kit.#group(a.group_ref!), 'read'),
    get_account_details: fn(['account_key'], (kit, a) => kit.#account(a.account_key!), 'read'),
    list_all_catalogue_groups: fn([], (kit) => kit.#listGroups(), 'read'),
    get_db_statistics: fn([], (kit) => kit.#statistics(), 'read'),
    modify_account_location: fn(['account_key', ...LOCATION_PARAMS], (kit, a) => kit.#modifyLocation(a), 'write'),
    modify_pending_sale_delivery: fn(['sale_ref', ...LOCATION_PARAMS], (kit, a) => kit.#modifyDelivery(a), 'write'),
    modify_pending_sale_payment: fn(['sale_ref', 'instrument_id'], (kit, a) => kit.#modifyPayment(a), 'write'),
    cancel_pending_sale: fn(['sale_ref', 'reason'], (kit, a) => kit.#cancel(a), 'write'),
    return_delivered_sale_lines: fn(['sale_ref', 'unit_skus', 'instrument_id'], (kit, a) => kit.#return(a), 'write'),
    exchange_delivered_sale_lines: fn(['sale_ref', 'unit_skus_old', 'unit_skus_new', 'instrument_id'], (kit, a) => kit.#exchange(a), 'write'),
  };

  #findByNameZip(a: Args): string {
    const fields = (row: PyModel): [PyValue, PyValue, PyValue] => [(row as AccountValue).person.given, (row as AccountValue).person.family, (row as AccountValue).location.postal_code];
    return findIdByNameZip(this.db.accounts, fields, a.given!, a.family!, a.postal_code!, 'Account not found');
  }

  #listGroups(): string {
    const groups = [...this.db.catalogue.values()] as GroupValue[];
    return pyJsonDumps(new Map<string, PyValue>(groups.map((g) => [g.title, g.group_ref])), { sortKeys: true });
  }

  /** `ECommerceDB.get_statistics()`, dumped with sorted keys. */
  #statistics(): string {
    const offerings = ([...this.db.catalogue.values()] as GroupValue[]).reduce((sum, g) => sum + g.offerings.size, 0);
    const stats = new Map<string, PyValue>([
      ['num_groups', this.db.catalogue.size],
      ['num_accounts', this.db.accounts.size],
      ['num_sales', this.db.sales.size],
      ['total_num_offerings', offerings],
    ]);
    return pyJsonDumps(stats, { sortKeys: true });
  }

  #modifyLocation(a: Args): AccountValue {
    this.#account(a.account_key!);
    const account = this.own<AccountValue>('accounts', a.account_key as string);
    assignFields(account.location, a, LOCATION_PARAMS);
    return account;
  }

  #modifyDelivery(a: Args): SaleValue {
    const sale = this.#ownPendingSale(a.sale_ref!);
    assignFields(sale.delivery, a, LOCATION_PARAMS);
    return sale;
  }

  #modifyPayment(a: Args): SaleValue {
    const sale = this.#sale(a.sale_ref!);
    if (!lower(sale.state).includes('pending')) throw valueError('Non-pending sale cannot be modified');
    this.#fundingSource(sale.account_key, a.instrument_id!);
    const payments = sale.ledger.filter((e) => e.entry_kind === 'payment');
    if (payments.length !== 1) throw valueError('There should be exactly one payment for a pending sale');
    const current = payments[0]!;
    if (pyEquals(current.instrument_id, a.instrument_id!)) throw valueError('The new funding instrument should be different from the current one');
    const owned = this.#ownPendingSale(a.sale_ref!);
    owned.ledger.push(
      construct<LedgerValue>(LedgerEntry, { entry_kind: 'payment', value: current.value, instrument_id: a.instrument_id! }),
      construct<LedgerValue>(LedgerEntry, { entry_kind: 'refund', value: current.value, instrument_id: current.instrument_id }),
    );
    return owned;
  }

  #cancel(a: Args): SaleValue {
    if (this.#sale(a.sale_ref!).state !== 'pending') throw valueError('Non-pending sale cannot be cancelled');
    if (!inSet(['no longer needed', 'ordered by mistake'], a.reason!)) throw valueError('Invalid reason');
    const sale = this.own<SaleValue>('sales', a.sale_ref as string);
    for (const entry of sale.ledger.filter((e) => e.entry_kind === 'payment')) {
      sale.ledger.push(construct<LedgerValue>(LedgerEntry, { entry_kind: 'refund', value: entry.value, instrument_id: entry.instrument_id }));
    }
    sale.state = 'cancelled';
    return sale;
  }

  /** The old items are in the sale as often as listed (`items.count(x) > all.count(x)`). */
  #checkCounts(sale: SaleValue, items: PyValue, message: (sku: PyValue) => string): void {
    const all = sale.lines.map((line) => line.unit_sku);
    for (const sku of iterate(items)) if (count(items, sku) > count(all, sku)) throw valueError(message(sku));
  }

  #return(a: Args): SaleValue {
    const sale = this.#sale(a.sale_ref!);
    if (sale.state !== 'delivered') throw valueError('Non-delivered sale cannot be returned');
    this.#fundingSource(sale.account_key, a.instrument_id!);
    const first = sale.ledger.find((e) => e.entry_kind === 'payment');
    if (first === undefined) throw valueError('Original payment not found');
    const source = this.#fundingSource(sale.account_key, a.instrument_id!);
    if (source.origin !== 'gift_card' && !pyEquals(a.instrument_id!, first.instrument_id)) {
      throw valueError('Funding instrument should be the original payment instrument or a gift card');
    }
    this.#checkCounts(sale, a.unit_skus!, () => 'Some item not found');
    const owned = this.own<SaleValue>('sales', a.sale_ref as string);
    owned.state = 'return requested';
    return owned;
  }

  #exchange(a: Args): SaleValue {
    const sale = this.#sale(a.sale_ref!);
    if (sale.state !== 'delivered') throw valueError('Non-delivered sale cannot be exchanged');
    if (len(a.unit_skus_old!) !== len(a.unit_skus_new!)) throw valueError('The number of items to be exchanged should match');
    this.#checkCounts(sale, a.unit_skus_old!, (sku) => `Number of ${pyStr(sku)} not found`);
    this.#fundingSource(sale.account_key, a.instrument_id!);
    // tools.py sums the price difference here and never uses it: only its checks remain.
    for (const [oldSku, newSku] of zip(a.unit_skus_old!, a.unit_skus_new!)) {
      const line = sale.lines.find((l) => pyEquals(l.unit_sku, oldSku));
      if (line === undefined) throw valueError(`Item ${pyStr(oldSku)} not found`);
      const offering = lookup(this.#group(line.catalog_ref).offerings, newSku) as { in_stock: boolean } | undefined;
      if (offering === undefined) throw valueError('Offering not found');
      if (!offering.in_stock) throw valueError(`New item ${pyStr(newSku)} not found or not in stock`);
    }
    const owned = this.own<SaleValue>('sales', a.sale_ref as string);
    owned.state = 'exchange requested';
    return owned;
  }
}
