// τ²-Bench retail's data model (tau2/domains/retail/data_model.py), field by field in its order.
// Pure TypeScript.

import { field, model, t } from '../model.ts';
import type { PyFloat, PyModel, PyValue } from '../pyValues.ts';

export const Variant = model('Variant', [field('item_id', t.str), field('options', t.dict(t.str)), field('available', t.bool), field('price', t.float)]);
export const Product = model('Product', [field('name', t.str), field('product_id', t.str), field('variants', t.dict(t.model(Variant)))]);
export const UserName = model('UserName', [field('first_name', t.str), field('last_name', t.str)]);
export const UserAddress = model('UserAddress', [
  field('address1', t.str),
  field('address2', t.str),
  field('city', t.str),
  field('country', t.str),
  field('state', t.str),
  field('zip', t.str),
]);
export const CreditCard = model('CreditCard', [
  field('source', t.choice(['credit_card'])),
  field('id', t.str),
  field('brand', t.str),
  field('last_four', t.str),
]);
/** GiftCard redeclares `id` after `balance`; pydantic keeps the inherited field's place. */
export const GiftCard = model('GiftCard', [field('source', t.choice(['gift_card'])), field('id', t.str), field('balance', t.float)]);
export const Paypal = model('Paypal', [field('source', t.choice(['paypal'])), field('id', t.str)]);
export const User = model('User', [
  field('user_id', t.str),
  field('name', t.model(UserName)),
  field('address', t.model(UserAddress)),
  field('email', t.str),
  field('payment_methods', t.dict(t.union(CreditCard, GiftCard, Paypal))),
  field('orders', t.list(t.str)),
]);
export const OrderFullfilment = model('OrderFullfilment', [field('tracking_id', t.list(t.str)), field('item_ids', t.list(t.str))]);
export const OrderItem = model('OrderItem', [
  field('name', t.str),
  field('product_id', t.str),
  field('item_id', t.str),
  field('price', t.float),
  field('options', t.dict(t.str)),
]);
export const OrderPayment = model('OrderPayment', [
  field('transaction_type', t.choice(['payment', 'refund'])),
  field('amount', t.float),
  field('payment_method_id', t.str),
]);
const ORDER_STATUS = ['processed', 'pending', 'pending (item modified)', 'delivered', 'cancelled', 'exchange requested', 'return requested'];
const none = () => null;
export const Order = model('Order', [
  field('order_id', t.str),
  field('user_id', t.str),
  field('address', t.model(UserAddress)),
  field('items', t.list(t.model(OrderItem))),
  field('status', t.choice(ORDER_STATUS)),
  field('fulfillments', t.list(t.model(OrderFullfilment))),
  field('payment_history', t.list(t.model(OrderPayment))),
  field('cancel_reason', t.optional(t.choice(['no longer needed', 'ordered by mistake'])), none),
  field('exchange_items', t.optional(t.list(t.str)), none),
  field('exchange_new_items', t.optional(t.list(t.str)), none),
  field('exchange_payment_method_id', t.optional(t.str), none),
  field('exchange_price_difference', t.optional(t.float), none),
  field('return_items', t.optional(t.list(t.str)), none),
  field('return_payment_method_id', t.optional(t.str), none),
]);
export const RetailDbSchema = model(
  'RetailDB',
  [field('products', t.dict(t.model(Product))), field('users', t.dict(t.model(User))), field('orders', t.dict(t.model(Order)))],
  'forbid',
);

// The shapes the tools work with (a model's dump form; pyValues.ts).
export type VariantValue = { item_id: string; options: Map<string, PyValue>; available: boolean; price: PyFloat };
export type ProductValue = { name: string; product_id: string; variants: Map<string, PyValue> };
export type PaymentMethodValue = { source: 'credit_card' | 'gift_card' | 'paypal'; id: string; balance?: PyFloat | number };
export type UserValue = PyModel & {
  user_id: string;
  name: { first_name: string; last_name: string };
  address: PyModel & { zip: string };
  email: string;
  payment_methods: Map<string, PyValue>;
  orders: string[];
};
export type OrderItemValue = { name: string; product_id: string; item_id: string; price: PyFloat; options: Map<string, PyValue> };
export type OrderPaymentValue = { transaction_type: 'payment' | 'refund'; amount: PyFloat; payment_method_id: string };
export type OrderValue = PyModel & {
  order_id: string;
  user_id: string;
  address: PyModel;
  items: OrderItemValue[];
  status: string;
  payment_history: OrderPaymentValue[];
  cancel_reason: PyValue;
  exchange_items: PyValue;
  exchange_new_items: PyValue;
  exchange_payment_method_id: PyValue;
  exchange_price_difference: PyValue;
  return_items: PyValue;
  return_payment_method_id: PyValue;
};
export type RetailDb = { products: Map<string, PyValue>; users: Map<string, PyValue>; orders: Map<string, PyValue> };
