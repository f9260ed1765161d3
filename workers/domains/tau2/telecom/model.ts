// τ²-Bench telecom's data models: the carrier's database (tau2/domains/telecom/data_model.py) and
// the user's phone and surroundings (user_data_model.py), field by field in their order, with
// their defaults. Enums hold their values; dates are strings as Python's str() prints them.
// Pure TypeScript.

import { field, model, t } from '../model.ts';
import { pyFloat, type PyValue } from '../pyValues.ts';

const none = () => null;
const no = () => false;
const zero = () => pyFloat(0);
const emptyList = (): PyValue[] => [];

export const LINE_STATUS = { active: 'Active', suspended: 'Suspended', pendingActivation: 'Pending Activation', closed: 'Closed' } as const;
export const BILL_STATUS = { draft: 'Draft', issued: 'Issued', awaitingPayment: 'Awaiting Payment', paid: 'Paid', overdue: 'Overdue', disputed: 'Disputed' } as const;

export const Address = model('Address', [field('street', t.str), field('city', t.str), field('state', t.str), field('zip_code', t.str)], 'forbid');
export const Plan = model(
  'Plan',
  [field('plan_id', t.str), field('name', t.str), field('data_limit_gb', t.float), field('price_per_month', t.float), field('data_refueling_price_per_gb', t.float)],
  'forbid',
);
export const Device = model(
  'Device',
  [
    field('device_id', t.str),
    field('device_type', t.choice(['phone', 'router', 'tablet', 'watch', 'other'], 'DeviceType')),
    field('model', t.str),
    field('imei', t.optional(t.str), none),
    field('is_esim_capable', t.bool),
    field('activated', t.bool, no),
    field('activation_date', t.optional(t.datetime), none),
    field('last_esim_transfer_date', t.optional(t.datetime), none),
  ],
  'forbid',
);
export const Line = model(
  'Line',
  [
    field('line_id', t.str),
    field('phone_number', t.str),
    field('status', t.choice(Object.values(LINE_STATUS), 'LineStatus'), () => LINE_STATUS.pendingActivation),
    field('plan_id', t.str),
    field('device_id', t.optional(t.str), none),
    field('data_used_gb', t.float, zero),
    field('data_refueling_gb', t.float, zero),
    field('roaming_enabled', t.bool, no),
    field('contract_end_date', t.optional(t.date), none),
    field('last_plan_change_date', t.optional(t.date), none),
    field('last_sim_replacement_date', t.optional(t.date), none),
    field('suspension_start_date', t.optional(t.date), none),
  ],
  'forbid',
);
export const LineItem = model('LineItem', [field('description', t.str), field('amount', t.float), field('date', t.date), field('item_type', t.str)], 'forbid');
export const Bill = model(
  'Bill',
  [
    field('bill_id', t.str),
    field('customer_id', t.str),
    field('period_start', t.date),
    field('period_end', t.date),
    field('issue_date', t.date),
    field('total_due', t.float),
    field('due_date', t.date),
    field('line_items', t.list(t.model(LineItem)), emptyList),
    field('status', t.choice(Object.values(BILL_STATUS), 'BillStatus'), () => BILL_STATUS.draft),
  ],
  'forbid',
);
export const PaymentMethod = model(
  'PaymentMethod',
  [field('method_type', t.choice(['Credit Card', 'Debit Card', 'PayPal'], 'PaymentMethodType')), field('account_number_last_4', t.str), field('expiration_date', t.str)],
  'forbid',
);
export const Customer = model(
  'Customer',
  [
    field('customer_id', t.str),
    field('full_name', t.str),
    field('date_of_birth', t.str),
    field('email', t.str),
    field('phone_number', t.str),
    field('address', t.model(Address)),
    field('account_status', t.choice(['Active', 'Suspended', 'Pending Verification', 'Closed'], 'AccountStatus'), () => 'Pending Verification'),
    field('payment_methods', t.list(t.model(PaymentMethod)), emptyList),
    field('line_ids', t.list(t.str), emptyList),
    field('bill_ids', t.list(t.str), emptyList),
    // The default is a date, not a datetime (pydantic does not validate defaults), so it prints
    // without a time.
    field('created_at', t.datetime, () => '2025-01-01'),
    field('last_extension_date', t.optional(t.date), none),
    field('goodwill_credit_used_this_year', t.float, zero),
  ],
  'forbid',
);
export const TelecomDbSchema = model(
  'TelecomDB',
  [
    field('plans', t.list(t.model(Plan)), emptyList),
    field('customers', t.list(t.model(Customer)), emptyList),
    field('lines', t.list(t.model(Line)), emptyList),
    field('bills', t.list(t.model(Bill)), emptyList),
    field('devices', t.list(t.model(Device)), emptyList),
  ],
  'forbid',
);

// The user's side.
export const SIGNAL = ['none', 'poor', 'fair', 'good', 'excellent'] as const;
export const TECHNOLOGY = ['none', '2G', '3G', '4G', '5G'] as const;
export const NETWORK_MODE = ['4g_5g_preferred', '4g_only', '3g_only', '2g_only'] as const;
export const PERFORMANCE = ['unknown', 'poor', 'fair', 'good', 'excellent'] as const;
export const SIM_STATUS = ['active', 'missing', 'locked_pin', 'locked_puk'] as const;
export const NETWORK_STATUS = ['connected', 'searching', 'no_service', 'emergency_only'] as const;

export const APNSettings = model(
  'APNSettings',
  [
    field('apn_name', t.choice(['internet', 'broken'], 'APNNames'), () => 'internet'),
    field('reset_at_reboot', t.bool, no),
    field('mms_apn', t.optional(t.str), () => 'mms'),
    field('mmsc_url', t.optional(t.str), () => 'http://mms.carrier.com/mms/wapenc'),
    field('mms_proxy', t.optional(t.str), none),
    field('mms_port', t.optional(t.int), none),
  ],
  'forbid',
);
export const VpnDetails = model(
  'VpnDetails',
  [
    field('server_address', t.optional(t.str), none),
    field('protocol', t.optional(t.str), none),
    field('server_performance', t.choice(PERFORMANCE, 'PerformanceLevel'), () => 'unknown'),
  ],
  'forbid',
);
export const AppPermissions = model('AppPermissions', [field('sms', t.bool, no), field('storage', t.bool, no), field('phone', t.bool, no), field('network', t.bool, no)], 'forbid');
const permissions = (granted: string[]) => ({ sms: granted.includes('sms'), storage: granted.includes('storage'), phone: granted.includes('phone'), network: granted.includes('network') });
export const AppStatus = model('AppStatus', [field('app_name', t.str), field('permissions', t.model(AppPermissions), () => permissions([]))], 'forbid');
export const MockPhoneAttributes = model(
  'MockPhoneAttributes',
  [
    field('sim_card_status', t.choice(SIM_STATUS, 'SimStatus'), () => 'active'),
    field('sim_card_missing', t.bool, no),
    field('airplane_mode', t.bool, no),
    field('network_signal_strength', t.choice(SIGNAL, 'SignalStrength'), () => 'good'),
    field('network_technology_connected', t.choice(TECHNOLOGY, 'NetworkTechnology'), () => '5G'),
    field('network_connection_status', t.choice(NETWORK_STATUS, 'NetworkStatus'), () => 'connected'),
    field('battery_level', t.int, () => 80),
    field('data_enabled', t.bool, () => true),
    field('roaming_enabled', t.bool, no),
    field('network_mode_preference', t.choice(NETWORK_MODE, 'NetworkModePreference'), () => '4g_5g_preferred'),
    field('active_apn_settings', t.model(APNSettings), () => defaultApn()),
    field('wifi_enabled', t.bool, no),
    field('wifi_connected', t.bool, no),
    field('wifi_ssid', t.optional(t.str), none),
    field('wifi_signal_strength', t.choice(SIGNAL, 'SignalStrength'), () => 'none'),
    field('wifi_calling_enabled', t.bool, no),
    field('wifi_calling_mms_over_wifi', t.bool, no),
    field('data_saver_mode', t.bool, no),
    field('vpn_enabled_setting', t.bool, no),
    field('vpn_connected', t.bool, no),
    field('vpn_details', t.optional(t.model(VpnDetails)), none),
    field(
      'app_statuses',
      t.dict(t.model(AppStatus)),
      () =>
        new Map<string, PyValue>([
          ['messaging', { app_name: 'messaging', permissions: permissions(['sms', 'storage', 'phone']) }],
          ['browser', { app_name: 'browser', permissions: permissions(['network', 'storage']) }],
        ]),
    ),
  ],
  'forbid',
);
export const PaymentRequest = model('PaymentRequest', [field('bill_id', t.str), field('amount_due', t.float), field('paid', t.bool, no)], 'forbid');
export const UserSurroundings = model(
  'UserSurroundings',
  [
    field('name', t.optional(t.str), none),
    field('phone_number', t.optional(t.str), none),
    field('is_abroad', t.bool, no),
    field('roaming_allowed', t.bool, no),
    field(
      'signal_strength',
      t.dict(t.choice(SIGNAL, 'SignalStrength')),
      () =>
        new Map<string, PyValue>([
          ['2G', 'poor'],
          ['3G', 'fair'],
          ['4G', 'good'],
          ['5G', 'excellent'],
        ]),
    ),
    field('mobile_data_usage_exceeded', t.bool, no),
    field('line_active', t.bool, () => true),
    field('payment_request', t.optional(t.model(PaymentRequest)), none),
  ],
  'forbid',
);
export const TelecomUserDbSchema = model(
  'TelecomUserDB',
  [field('device', t.model(MockPhoneAttributes), () => defaultOf(MockPhoneAttributes)), field('surroundings', t.model(UserSurroundings), () => defaultOf(UserSurroundings))],
  'forbid',
);

function defaultApn(): PyValue {
  return defaultOf(APNSettings);
}

/** A model built from its defaults alone (`Model()`). */
export function defaultOf(schema: typeof APNSettings): { [field: string]: PyValue } {
  const out: { [field: string]: PyValue } = {};
  for (const spec of schema.fields) out[spec.name] = spec.default!();
  return out;
}
