// The ported tools against what τ²'s Python returns for the same calls (each expected text was
// printed by the vendored τ² under CPython; pydantic's docs link names 2.10, the version τ² pins).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTau2Domain } from './domains.ts';
import type { Tau2Environment } from './environment.ts';
import type { Requestor } from './messages.ts';
import { pyFloat, type PyValue } from './pyValues.ts';

const load = (name: 'retail' | 'telecom') => loadTau2Domain(name, (file) => readFileSync(path.join(import.meta.dirname, name, file), 'utf8'), { newBillId: () => 'Bfixed01' });
const retail = load('retail');
const telecom = load('telecom');

function call(env: Tau2Environment, name: string, args: Record<string, PyValue> = {}, requestor: Requestor = 'assistant'): string {
  return env.getResponse({ id: '1', name, arguments: new Map(Object.entries(args)), requestor }).content!;
}

describe('retail', () => {
  it("parses the whole database to τ²'s hash, and a rollout's writes never reach the seed", async () => {
    const env = retail.newEnvironment();
    expect(await env.dbHash()).toBe('b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c');
    call(env, 'modify_pending_order_items', {
      order_id: '#W5918442',
      item_ids: ['1725100896', '5312063289'],
      new_item_ids: ['9007697085', '6843647669'],
      payment_method_id: 'credit_card_5051208',
    });
    expect(await env.dbHash()).toBe('0e93c44750bda0e4e35684a6a9879e18ab2e8ca6adaaf8ba3b6612417a6ef92c');
    expect(await retail.newEnvironment().dbHash()).toBe('b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c');
  });

  it("keeps tools.py's quirk: every modified item takes the last new item's price, and the difference is not rounded", () => {
    const order = JSON.parse(
      call(retail.newEnvironment(), 'modify_pending_order_items', {
        order_id: '#W5918442',
        item_ids: ['1725100896', '5312063289'],
        new_item_ids: ['9007697085', '6843647669'],
        payment_method_id: 'credit_card_5051208',
      }),
    ) as { items: { item_id: string; price: number }[]; payment_history: unknown[] };
    expect(order.items.slice(0, 2)).toMatchObject([
      { item_id: '9007697085', price: 180.1 },
      { item_id: '6843647669', price: 180.1 },
    ]);
    expect(order.payment_history.at(-1)).toEqual({ transaction_type: 'payment', amount: 14.249999999999943, payment_method_id: 'credit_card_5051208' });
  });

  it("words errors as Python and pydantic word them", () => {
    const env = retail.newEnvironment();
    expect(call(env, 'get_order_details', { order_id: '#W0000000' })).toBe('Error: Order not found');
    expect(call(env, 'get_order_details', { order_id: 123 })).toBe('Error: Order not found');
    expect(call(env, 'get_order_details', { order_id: '#W2378156', foo: 1 })).toBe("Error: RetailTools.get_order_details() got an unexpected keyword argument 'foo'");
    expect(call(env, 'get_order_details')).toBe("Error: RetailTools.get_order_details() missing 1 required positional argument: 'order_id'");
    expect(call(env, 'find_user_id_by_email', { email: 5 })).toBe("Error: 'int' object has no attribute 'lower'");
    expect(call(env, 'nope')).toBe("Error: Tool 'nope' not found.");
    expect(call(env, 'cancel_pending_order', { order_id: '#W2378156', reason: 'x' })).toBe('Error: Non-pending order cannot be cancelled');
    expect(
      call(env, 'modify_user_address', { user_id: 'yusuf_rossi_9620', address1: 'a', address2: 'b', city: 'c', state: 'd', country: 'e', zip: 19122 }),
    ).toBe(
      'Error: 1 validation error for UserAddress\nzip\n  Input should be a valid string [type=string_type, input_value=19122, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.10/v/string_type',
    );
    expect(call(env, 'list_all_product_types').startsWith('{"Action Camera": "3377618313", "Air Purifier": "3821016478", "Backpack": "2524789262"')).toBe(true);
  });
});

describe('telecom', () => {
  const withUser = () => {
    const env = telecom.newEnvironment();
    env.runEnvFunctionCall({ envType: 'user', funcName: 'set_user_info', arguments: new Map([['name', 'John Smith'], ['phone_number', '555-123-2002']]) });
    return env;
  };

  it('renders a returned dict with its numbers as strings, and an int argument as an int', () => {
    const env = withUser();
    expect(call(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: pyFloat(2) })).toBe(
      '{"message": "Successfully added 2.0 GB of data for line L1002 for $4.00", "new_data_refueling_gb": "2.0", "charge": "4.0"}',
    );
    expect(call(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: 2 })).toBe(
      '{"message": "Successfully added 2 GB of data for line L1002 for $4.00", "new_data_refueling_gb": "4.0", "charge": "4.0"}',
    );
    expect(call(env, 'get_data_usage', { customer_id: 'C1001', line_id: 'L1002' })).toBe(
      '{"line_id": "L1002", "data_used_gb": "8.7", "data_limit_gb": "15.0", "data_refueling_gb": "4.0", "cycle_end_date": "2025-02-28"}',
    );
    expect(call(env, 'get_bills_for_customer', { customer_id: 'C1001', limit: 1 })).toBe(
      '[{"bill_id": "B1003", "customer_id": "C1001", "period_start": "2025-03-01", "period_end": "2025-03-31", "issue_date": "2025-03-01", "total_due": 8.0, "due_date": "2025-03-15", "line_items": [{"description": "Data refueling: 2.0 GB at $2.0/GB", "amount": 4.0, "date": "2025-02-25", "item_type": "Charge"}, {"description": "Data refueling: 2 GB at $2.0/GB", "amount": 4.0, "date": "2025-02-25", "item_type": "Charge"}], "status": "Draft"}]',
    );
  });

  it("gives the user's phone tools their texts, an enum's repr and pydantic's errors included", async () => {
    const env = withUser();
    call(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: pyFloat(2) });
    call(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: 2 });
    expect(call(env, 'connect_vpn', {}, 'user')).toBe('VPN connected successfully.\nStatus Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔒 VPN Connected | 🔋 80%');
    expect(call(env, 'check_vpn_status', {}, 'user')).toBe(
      "VPN is ON and connected. Details: {'server_address': '192.168.1.1', 'protocol': 'OpenVPN', 'server_performance': <PerformanceLevel.EXCELLENT: 'excellent'>}",
    );
    expect(call(env, 'grant_app_permission', { app_name: 'messaging', permission: 'camera' }, 'user')).toBe(
      "Error. Permission 'camera' not tracked for app 'messaging', available permissions: ['sms', 'storage', 'phone', 'network']\nStatus Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔒 VPN Connected | 🔋 80%",
    );
    expect(call(env, 'set_apn_settings', { apn_settings: new Map([['apn_name', 'nope']]) }, 'user')).toBe(
      "Error: 1 validation error for APNSettings\napn_name\n  Input should be 'internet' or 'broken' [type=enum, input_value='nope', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.10/v/enum",
    );
    expect(call(env, 'suspend_line', { customer_id: 'C1001', line_id: 'L1002', reason: 'x' })).toBe(
      '{"message": "Line suspended successfully. $5/month holding fee will apply.", "line": {"line_id": "L1002", "phone_number": "555-123-2002", "status": "Suspended", "plan_id": "P1002", "device_id": "D1002", "data_used_gb": 8.7, "data_refueling_gb": 4.0, "roaming_enabled": true, "contract_end_date": "2026-12-31", "last_plan_change_date": "2024-12-15", "last_sim_replacement_date": "2025-01-20", "suspension_start_date": "2025-02-25"}}',
    );
    expect(call(env, 'check_payment_request', {}, 'user')).toBe('No payment request has been made.');
    // τ² hashes these two databases to the same values after the same calls.
    expect(await env.dbHash()).toBe('3b22f50b152bafde138aee25e13ac5deeb40f6094a4aeaff7c1d7673c76b6682');
    expect(await env.userDbHash()).toBe('a81d33cbdf4836da827e669d0914d72b08aede3247d1ff3621bd6244b602eb7b');
  });
});

describe('a shipped file that is broken', () => {
  const files = (name: 'retail' | 'telecom', change: Record<string, string>) => (file: string) => change[file] ?? readFileSync(path.join(import.meta.dirname, name, file), 'utf8');
  it('is refused with the file, the task and the field named', () => {
    expect(() => loadTau2Domain('retail', files('retail', { 'db.json': '{"products": {}, "users": {}, "orders": ' }))).toThrow('retail/db.json: Expecting value at line 1');
    expect(() => loadTau2Domain('retail', files('retail', { 'db.json': '{"products": {"1": {"name": "x", "product_id": "1", "variants": {"2": {"item_id": "2", "options": {}, "available": true, "price": "cheap"}}}}, "users": {}, "orders": {}}' }))).toThrow(
      /^retail\/db\.json: 1 validation error for RetailDB\nproducts\.1\.variants\.2\.price\n {2}Input should be a valid number, unable to parse string as a number/,
    );
    expect(() =>
      loadTau2Domain('telecom', files('telecom', { 'tasks.json': '[{"id": "t1", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {"reward_basis": ["SPEED"]}}]' })),
    ).toThrow('telecom/tasks.json: task 1 ("t1"): evaluation_criteria.reward_basis: unknown reward type "SPEED"');
  });
});
