// ToolScale e-commerce's data model (tau2/domains/ecommerce/data_model.py), field by field in its
// order. Pure TypeScript.

import { t } from '../../model.ts';
import type { PyModel, PyValue } from '../../pyValues.ts';
import { database, shape } from '../common.ts';

const OfferingAttributes = shape('OfferingAttributes', { hue: t.str, dimension: t.str, fabrication: t.str, pattern: t.str });
const Offering = shape('Offering', { unit_sku: t.str, attributes: t.model(OfferingAttributes), in_stock: t.bool, unit_price: t.float });
const CatalogueGroup = shape('CatalogueGroup', { title: t.str, group_ref: t.str, offerings: t.dict(t.model(Offering)) });
const PersonName = shape('PersonName', { given: t.str, family: t.str });
const Location = shape('Location', { line1: t.str, line2: t.str, municipality: t.str, nation: t.str, region: t.str, postal_code: t.str });
const FundingSourceMeta = shape('FundingSourceMeta', { issuer: t.str, last_digits: t.str });
const FundingSource = shape('FundingSource', { origin: t.str, instrument_id: t.str, meta: t.model(FundingSourceMeta) });
const Account = shape('Account', {
  account_key: t.str,
  person: t.model(PersonName),
  location: t.model(Location),
  contact_email: t.str,
  funding_sources: t.dict(t.model(FundingSource)),
  purchases: t.list(t.str),
});
const SaleLineAttributes = shape('SaleLineAttributes', { volume: t.str, composition: t.str, tint: t.str });
const SaleLine = shape('SaleLine', { label: t.str, catalog_ref: t.str, unit_sku: t.str, unit_price: t.float, attributes: t.model(SaleLineAttributes) });
const Shipment = shape('Shipment', { parcel_codes: t.list(t.str), sku_list: t.list(t.str) });
export const LedgerEntry = shape('LedgerEntry', { entry_kind: t.choice(['payment', 'refund']), value: t.float, instrument_id: t.str });
const Sale = shape('Sale', {
  sale_ref: t.str,
  account_key: t.str,
  delivery: t.model(Location),
  lines: t.list(t.model(SaleLine)),
  state: t.str,
  shipments: t.list(t.model(Shipment)),
  ledger: t.list(t.model(LedgerEntry)),
});
export const ECommerceDbSchema = database('ECommerceDB', { catalogue: CatalogueGroup, accounts: Account, sales: Sale });

// The shapes the tools read and write (a model's dump form).
export type GroupValue = PyModel & { title: string; group_ref: string; offerings: Map<string, PyValue> };
export type AccountValue = PyModel & {
  person: { given: string; family: string };
  location: PyModel & { postal_code: string };
  contact_email: string;
  funding_sources: Map<string, PyValue>;
};
export type LedgerValue = PyModel & { entry_kind: string; value: PyValue; instrument_id: string };
export type SaleValue = PyModel & {
  account_key: string;
  delivery: PyModel;
  lines: { catalog_ref: string; unit_sku: string }[];
  state: string;
  ledger: LedgerValue[];
};
export type ECommerceDb = { catalogue: Map<string, PyValue>; accounts: Map<string, PyValue>; sales: Map<string, PyValue> };
