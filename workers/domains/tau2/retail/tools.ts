// τ²-Bench retail's tools (tau2/domains/retail/tools.py), ported call for call: the same checks in
// the same order, the same errors, the same results, and the same quirks (a modified pending
// order's items all take the price and options of the last new item; an exchange's price
// difference is rounded, a modification's is not). Trusted code of ours, run natively.
//
// Each rollout's database shares the parsed seed's rows until a tool writes one: a write tool
// takes its own copy of the order or user first (`ownOrder`, `ownUser`), so setting up a rollout
// costs three Map copies, not a copy of the database. Pure TypeScript.

import { calculate } from '../calculate.ts';
import { construct, deepCopy } from '../model.ts';
import { PyError, valueError } from '../pyErrors.ts';
import { pyJsonDumps } from '../pyJson.ts';
import { count, inSet, iterate, len, less, lookup, lower, sorted, zip } from '../pyOps.ts';
import { pyAbs, pyAdd, pyEquals, type PyFloat, pyRound, pyStr, pySub, type PyModel, type PyValue } from '../pyValues.ts';
import { TableSeed } from '../tableSeed.ts';
import { fn, Toolkit, type ToolFunction } from '../toolkit.ts';
import { OrderPayment, UserAddress, type OrderItemValue, type OrderPaymentValue, type OrderValue, type PaymentMethodValue, type ProductValue, type RetailDb, type UserValue, type VariantValue } from './model.ts';

type Db = RetailDb & PyModel;
type Args = Record<string, PyValue>;

const ADDRESS_PARAMS = ['address1', 'address2', 'city', 'state', 'country', 'zip'];

/** The parsed database every rollout starts from, and each of its rows dumped with sorted keys
 * (made on first use, shared by every rollout's hash: a rollout changes a handful of rows). */
export class RetailSeed extends TableSeed<RetailDb> {}

/** `order.payment_history[0]`, with Python's IndexError on an empty history. */
function firstPayment(order: OrderValue): OrderPaymentValue {
  const first = order.payment_history[0];
  if (!first) throw new PyError('IndexError', 'list index out of range');
  return first;
}

export class RetailTools extends Toolkit<Db> {
  readonly className = 'RetailTools';
  /** Rows this rollout has copied from the seed and may change. */
  readonly #owned = new WeakSet<object>();

  constructor(readonly seed: RetailSeed) {
    super(seed.fork() as Db);
  }

  override knownDump(row: object): string | undefined {
    return this.seed.dumpOf(row);
  }

  override sharedRow(row: object): boolean {
    return this.seed.has(row);
  }

  #order(id: PyValue): OrderValue {
    const order = lookup(this.db.orders, id);
    if (order === undefined) throw valueError('Order not found');
    return order as OrderValue;
  }

  #user(id: PyValue): UserValue {
    const user = lookup(this.db.users, id);
    if (user === undefined) throw valueError('User not found');
    return user as UserValue;
  }

  #product(id: PyValue): ProductValue {
    const product = lookup(this.db.products, id);
    if (product === undefined) throw valueError('Product not found');
    return product as ProductValue;
  }

  #variant(productId: PyValue, variantId: PyValue): VariantValue {
    const variant = lookup(this.#product(productId).variants, variantId);
    if (variant === undefined) throw valueError('Variant not found');
    return variant as VariantValue;
  }

  #paymentMethod(userId: PyValue, paymentMethodId: PyValue): PaymentMethodValue {
    const method = lookup(this.#user(userId).payment_methods, paymentMethodId);
    if (method === undefined) throw valueError('Payment method not found');
    return method as PaymentMethodValue;
  }

  /** A row this rollout may change: copied from the seed first if it still is the seed's. */
  #own<T extends PyModel>(table: Map<string, PyValue>, id: PyValue, row: T): T {
    if (this.#owned.has(row)) return row;
    const copy = deepCopy(row);
    this.#owned.add(copy);
    table.set(id as string, copy);
    return copy;
  }

  ownOrder(id: PyValue): OrderValue {
    return this.#own(this.db.orders, id, this.#order(id));
  }

  ownUser(id: PyValue): UserValue {
    return this.#own(this.db.users, id, this.#user(id));
  }

  /** A payment method of a user this rollout owns (a gift card's balance is about to change). */
  #ownPaymentMethod(userId: PyValue, paymentMethodId: PyValue): PaymentMethodValue {
    this.#paymentMethod(userId, paymentMethodId);
    return this.ownUser(userId).payment_methods.get(paymentMethodId as string) as PaymentMethodValue;
  }

  readonly functions: Readonly<Record<string, ToolFunction<RetailTools>>> = {
    calculate: fn(['expression'], (_, a) => calculate(a.expression!), 'generic'),
    cancel_pending_order: fn(['order_id', 'reason'], (kit, a) => kit.#cancel(a), 'write'),
    exchange_delivered_order_items: fn(['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'], (kit, a) => kit.#exchange(a), 'write'),
    find_user_id_by_name_zip: fn(['first_name', 'last_name', 'zip'], (kit, a) => kit.#findByNameZip(a), 'read'),
    find_user_id_by_email: fn(['email'], (kit, a) => kit.#findByEmail(a), 'read'),
    get_order_details: fn(['order_id'], (kit, a) => kit.#order(a.order_id!), 'read'),
    get_product_details: fn(['product_id'], (kit, a) => kit.#product(a.product_id!), 'read'),
    get_user_details: fn(['user_id'], (kit, a) => kit.#user(a.user_id!), 'read'),
    list_all_product_types: fn([], (kit) => kit.#listProductTypes(), 'read'),
    modify_pending_order_address: fn(['order_id', ...ADDRESS_PARAMS], (kit, a) => kit.#modifyOrderAddress(a), 'write'),
    modify_pending_order_items: fn(['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'], (kit, a) => kit.#modifyItems(a), 'write'),
    modify_pending_order_payment: fn(['order_id', 'payment_method_id'], (kit, a) => kit.#modifyPayment(a), 'write'),
    modify_user_address: fn(['user_id', ...ADDRESS_PARAMS], (kit, a) => kit.#modifyUserAddress(a), 'write'),
    return_delivered_order_items: fn(['order_id', 'item_ids', 'payment_method_id'], (kit, a) => kit.#returnItems(a), 'write'),
    transfer_to_human_agents: fn(['summary'], () => 'Transfer successful', 'generic'),
  };

  #cancel(a: Args): OrderValue {
    const order = this.#order(a.order_id!);
    if (order.status !== 'pending') throw valueError('Non-pending order cannot be cancelled');
    if (!inSet(['no longer needed', 'ordered by mistake'], a.reason!)) throw valueError('Invalid reason');
    const owned = this.ownOrder(a.order_id!);
    const refunds: OrderPaymentValue[] = [];
    for (const payment of owned.payment_history) {
      refunds.push(construct(OrderPayment, { transaction_type: 'refund', amount: payment.amount, payment_method_id: payment.payment_method_id }) as OrderPaymentValue);
      const user = this.#user(owned.user_id);
      const method = this.#paymentMethod(user.user_id, payment.payment_method_id);
      if (method.source === 'gift_card') {
        const card = this.#ownPaymentMethod(user.user_id, payment.payment_method_id);
        card.balance = pyRound(pyAdd(card.balance!, payment.amount), 2);
      }
    }
    owned.status = 'cancelled';
    owned.cancel_reason = a.reason!;
    owned.payment_history.push(...refunds);
    return owned;
  }

  /** The checks shared by an exchange and a modification: every old item is in the order as
   * often as listed. */
  #checkItemsInOrder(order: OrderValue, itemIds: PyValue, message: (id: PyValue) => string): void {
    const all = order.items.map((item) => item.item_id);
    for (const id of iterate(itemIds)) {
      if (count(itemIds, id) > count(all, id)) throw valueError(message(id));
    }
  }

  #exchange(a: Args): OrderValue {
    const order = this.#order(a.order_id!);
    if (order.status !== 'delivered') throw valueError('Non-delivered order cannot be exchanged');
    this.#checkItemsInOrder(order, a.item_ids!, (id) => `Number of ${pyStr(id)} not found.`);
    if (len(a.item_ids!) !== len(a.new_item_ids!)) throw valueError('The number of items to be exchanged should match.');
    let diff: number | PyFloat = 0;
    for (const [itemId, newItemId] of zip(a.item_ids!, a.new_item_ids!)) {
      const item = order.items.find((i) => pyEquals(i.item_id, itemId));
      if (!item) throw valueError(`Item ${pyStr(itemId)} not found`);
      const variant = this.#variant(item.product_id, newItemId);
      if (!variant.available) throw valueError(`New item ${pyStr(newItemId)} not found or available`);
      diff = pyAdd(diff, pySub(variant.price, item.price));
    }
    diff = pyRound(diff, 2);
    const method = this.#paymentMethod(order.user_id, a.payment_method_id!);
    if (method.source === 'gift_card' && less(method.balance!, diff)) throw valueError('Insufficient gift card balance to pay for the price difference');
    const owned = this.ownOrder(a.order_id!);
    owned.status = 'exchange requested';
    owned.exchange_items = sorted(a.item_ids!);
    owned.exchange_new_items = sorted(a.new_item_ids!);
    owned.exchange_payment_method_id = a.payment_method_id!;
    owned.exchange_price_difference = diff;
    return owned;
  }

  #findByNameZip(a: Args): string {
    for (const [id, value] of this.db.users) {
      const user = value as UserValue;
      if (lower(user.name.first_name) === lower(a.first_name!) && lower(user.name.last_name) === lower(a.last_name!) && pyEquals(user.address.zip, a.zip!)) return id;
    }
    throw valueError('User not found');
  }

  #findByEmail(a: Args): string {
    for (const [id, value] of this.db.users) {
      if (lower((value as UserValue).email) === lower(a.email!)) return id;
    }
    throw valueError('User not found');
  }

  #listProductTypes(): string {
    const byName = new Map<string, PyValue>();
    for (const value of this.db.products.values()) {
      const product = value as ProductValue;
      byName.set(product.name, product.product_id);
    }
    return pyJsonDumps(byName, { sortKeys: true });
  }

  #address(a: Args): PyModel {
    return construct(UserAddress, { address1: a.address1!, address2: a.address2!, city: a.city!, state: a.state!, country: a.country!, zip: a.zip! });
  }

  #modifyOrderAddress(a: Args): OrderValue {
    const order = this.#order(a.order_id!);
    if (!order.status.includes('pending')) throw valueError('Non-pending order cannot be modified');
    const address = this.#address(a);
    const owned = this.ownOrder(a.order_id!);
    owned.address = address;
    return owned;
  }

  #modifyItems(a: Args): OrderValue {
    const order = this.#order(a.order_id!);
    if (order.status !== 'pending') throw valueError('Non-pending order cannot be modified');
    this.#checkItemsInOrder(order, a.item_ids!, (id) => `${pyStr(id)} not found`);
    if (len(a.item_ids!) !== len(a.new_item_ids!)) throw valueError('The number of items to be exchanged should match');
    let diff: number | PyFloat = 0;
    let variant: VariantValue | undefined;
    const pairs = zip(a.item_ids!, a.new_item_ids!);
    for (const [itemId, newItemId] of pairs) {
      if (pyEquals(itemId, newItemId)) throw valueError('The new item id should be different from the old item id');
      const item = order.items.find((i) => pyEquals(i.item_id, itemId));
      if (!item) throw valueError(`Item ${pyStr(itemId)} not found`);
      variant = this.#variant(item.product_id, newItemId);
      if (!variant.available) throw valueError(`New item ${pyStr(newItemId)} not found or available`);
      diff = pyAdd(diff, pySub(variant.price, item.price));
    }
    const method = this.#paymentMethod(order.user_id, a.payment_method_id!);
    if (method.source === 'gift_card' && less(method.balance!, diff)) throw valueError('Insufficient gift card balance to pay for the new item');
    const owned = this.ownOrder(a.order_id!);
    const positive = typeof diff === 'number' ? diff > 0 : diff.value > 0;
    owned.payment_history.push(construct(OrderPayment, { transaction_type: positive ? 'payment' : 'refund', amount: pyAbs(diff), payment_method_id: a.payment_method_id! }) as OrderPaymentValue);
    if (method.source === 'gift_card') {
      const card = this.#ownPaymentMethod(order.user_id, a.payment_method_id!);
      card.balance = pyRound(pySub(card.balance!, diff), 2);
    }
    // As in tools.py, every modified item takes the last new item's price and options.
    for (const [itemId, newItemId] of pairs) {
      const item: OrderItemValue | undefined = owned.items.find((i) => pyEquals(i.item_id, itemId));
      if (!item) throw valueError(`Item ${pyStr(itemId)} not found`);
      item.item_id = newItemId as string;
      item.price = variant!.price;
      item.options = variant!.options;
    }
    owned.status = 'pending (item modified)';
    return owned;
  }

  #modifyPayment(a: Args): OrderValue {
    const order = this.#order(a.order_id!);
    if (!order.status.includes('pending')) throw valueError('Non-pending order cannot be modified');
    const method = this.#paymentMethod(order.user_id, a.payment_method_id!);
    const history = order.payment_history;
    if (history.length !== 1 || history[0]!.transaction_type !== 'payment') throw valueError('There should be exactly one payment for a pending order');
    if (pyEquals(history[0]!.payment_method_id, a.payment_method_id!)) throw valueError('The new payment method should be different from the current one');
    const amount = history[0]!.amount;
    if (method.source === 'gift_card' && less(method.balance!, amount)) throw valueError('Insufficient gift card balance to pay for the order');
    const owned = this.ownOrder(a.order_id!);
    const oldMethodId = owned.payment_history[0]!.payment_method_id;
    owned.payment_history.push(
      construct(OrderPayment, { transaction_type: 'payment', amount, payment_method_id: a.payment_method_id! }) as OrderPaymentValue,
      construct(OrderPayment, { transaction_type: 'refund', amount, payment_method_id: oldMethodId }) as OrderPaymentValue,
    );
    if (method.source === 'gift_card') {
      const card = this.#ownPaymentMethod(owned.user_id, a.payment_method_id!);
      card.balance = pyRound(pySub(card.balance!, amount), 2);
    }
    const oldMethod = this.#paymentMethod(owned.user_id, oldMethodId);
    if (oldMethod.source === 'gift_card') {
      const card = this.#ownPaymentMethod(owned.user_id, oldMethodId);
      card.balance = pyRound(pyAdd(card.balance!, amount), 2);
    }
    return owned;
  }

  #modifyUserAddress(a: Args): UserValue {
    this.#user(a.user_id!);
    const address = this.#address(a);
    const owned = this.ownUser(a.user_id!);
    owned.address = address as UserValue['address'];
    return owned;
  }

  #returnItems(a: Args): OrderValue {
    const order = this.#order(a.order_id!);
    if (order.status !== 'delivered') throw valueError('Non-delivered order cannot be returned');
    const user = this.#user(order.user_id);
    const method = this.#paymentMethod(user.user_id, a.payment_method_id!);
    if (method.source !== 'gift_card' && !pyEquals(a.payment_method_id!, firstPayment(order).payment_method_id)) {
      throw valueError('Payment method should be the original payment method');
    }
    const all = order.items.map((item) => item.item_id);
    for (const id of iterate(a.item_ids!)) {
      if (count(a.item_ids!, id) > count(all, id)) throw valueError('Some item not found');
    }
    const owned = this.ownOrder(a.order_id!);
    owned.status = 'return requested';
    owned.return_items = sorted(a.item_ids!);
    owned.return_payment_method_id = a.payment_method_id!;
    return owned;
  }
}

