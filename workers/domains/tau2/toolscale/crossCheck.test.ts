// ToolScale's ported tools against τ²-Bench's own Python: every call listed in
// e2e/fixtures/toolscale/calls.json, made in order in one environment, must return the text τ²
// returned (byte for byte, errors included) and leave the database with τ²'s hash; each of our
// example tasks' golden actions must run without error to τ²'s final hash. The expected values
// were recorded by e2e/fixtures/toolscale/reference_toolscale.py from the vendored Python.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTau2Domain, TAU2_DOMAIN_FOLDERS } from '../domains.ts';
import type { Tau2Environment } from '../environment.ts';
import { parsePyJson } from '../pyJson.ts';
import type { PyValue } from '../pyValues.ts';
import { TOOLSCALE_DOMAIN_NAMES, type ToolScaleDomainName } from './domains.ts';

const REFERENCE = path.resolve(import.meta.dirname, '../../../../e2e/fixtures/toolscale/reference');
/** The reference script's clock for bank (FIXED_NOW). */
const FIXED_NOW = () => new Date('2025-01-15T12:00:00Z');

type Recorded = Map<string, PyValue>;

/** A ToolScale domain as every τ² domain is loaded: through tau2/domains.ts, from its folder. */
function loadDomain(name: ToolScaleDomainName) {
  const folder = path.resolve(import.meta.dirname, '../..', TAU2_DOMAIN_FOLDERS[name]);
  return loadTau2Domain(name, (file) => readFileSync(path.join(folder, file), 'utf8'), { now: FIXED_NOW });
}

function read(env: Tau2Environment, tool: string, args: Record<string, string>): string {
  return env.getResponse({ id: 'check', name: tool, arguments: new Map(Object.entries(args)), requestor: 'assistant' }).content ?? '';
}

// What each example task is meant to change, as a read tool shows it afterwards (written from the
// tasks' descriptions, not from a run): each text must be in the answer after the golden actions
// and not before.

/** What the fixture recorded of a text: the text, or its digest for a long one. */
function sameText(actual: string, recorded: Recorded): boolean {
  if (recorded.has('content')) return actual === recorded.get('content');
  return createHash('sha256').update(actual).digest('hex') === recorded.get('content_sha256');
}

type Check = [tool: string, args: Record<string, string>, text: string];

const INTENDED: Record<string, Check[]> = {
  bank_verify_and_pay_beneficiary: [
    ['get_beneficiary_details', { beneficiary_id: 'IL32HDL3' }, '"status": "verified", "method": "document"'],
    ['get_account_details', { account_id: '1U8RIZ43' }, '"current": 1152000.0, "available": 1152000.0'],
  ],
  bank_internal_transfer: [
    ['get_account_details', { account_id: '3VNWQ3S-A1' }, '"current": 65000.5, "available": 63000.5'],
    ['get_account_details', { account_id: '3VNWQ3S-A2' }, '"current": 170000.0, "available": 170000.0'],
  ],
  bank_lost_card_and_loan_payment: [
    ['get_card_details', { card_id: 'CRM6JY91' }, '"status": "blocked"'],
    ['get_loan_details', { loan_id: 'DHT44YS1' }, '"transaction_id": "tx_0000298", "posted_at": "2025-01-15T12:00:00Z", "amount": 100000.0'],
  ],
  basketball_move_address: [['get_player_details', { player_id: 'LWFJ5KM' }, '"street": "789 Woodward Ave", "city": "Detroit", "country": "USA", "state": "MI", "zip": "48226"']],
  basketball_record_three: [['get_game_score', { game_id: 'O9P5BJ5' }, '"away": {"club_id": "U2H38AR", "name": "Utah Jazz", "score": "15"}']],
  basketball_tip_off_and_free_throw: [
    ['get_game_score', { game_id: 'FWV9RUE' }, '"status": "in_progress"'],
    ['get_game_timeline', { game_id: 'FWV9RUE' }, '"event_type": "FT", "points": 1, "club_id": "W779G9U", "player_id": "ETJAB0I", "timestamp": "Q1 11:40"'],
  ],
  ecommerce_return_freezer: [['get_sale_details', { sale_ref: 'xgEXLLy' }, '"state": "return requested"']],
  ecommerce_new_default_address: [['get_account_details', { account_key: 'bdXPomk' }, '"line1": "1 Oak Road", "line2": "", "municipality": "Shelbyville"']],
  ecommerce_exchange_oven_mitt: [['get_sale_details', { sale_ref: 'jRp0Obg' }, '"state": "exchange requested"']],
  medicine_new_contact_details: [['get_patient_details', { patient_id: 'PMDGGJP' }, '"email": "maria.sanchez.fl@example.com", "phone": "407-555-9090"']],
  medicine_fill_doxycycline: [
    ['get_prescription_details', { prescription_id: 'UYZQ1FV' }, '"status": "filled"'],
    ['check_medication_inventory', { medication_id: 'EH5OTH9' }, '"total_units": "114972"'],
  ],
  medicine_transfer_to_lakeside: [['get_prescription_details', { prescription_id: '6FRZRGB' }, '"pharmacy_id": "PHARM-009", "name": "Lakeside Pharmacy"']],
  movie_book_with_popcorn: [['get_booking_details', { booking_id: 'BKG001' }, '"grand_total": 37.4, "amount_paid": 37.4, "amount_due": 0.0']],
  movie_cancel_pending_booking: [['get_booking_details', { booking_id: 'S2RH8XE' }, '"status": "canceled"']],
  movie_move_seats: [
    ['get_booking_details', { booking_id: 'S78YJLG-B1' }, '"seat_id": "R2-03"'],
    ['get_booking_details', { booking_id: 'S78YJLG-B1' }, '"amount_paid": 32.48'],
  ],
  railway_book_first_class: [['get_reservation_details', { reservation_id: 'TRN001' }, '"payment_history": [{"payment_id": "card-cz-0002", "amount": 142.5}]']],
  railway_extra_bags_from_wallet: [
    ['get_reservation_details', { reservation_id: 'cz202' }, '"total_bags": 3'],
    ['get_user_details', { user_id: 'cz101' }, '"extra_info": {"amount": 1970}'],
  ],
  railway_cancel_trip: [['get_reservation_details', { reservation_id: 'cz201' }, '{"payment_id": "pay-cz-0001", "amount": -1640.0}']],
  restaurant_upgrade_plate: [['get_ticket_details', { ticket_ref: 'tZoV7rl' }, '{"kind": "payment", "total": 15.0, "instrument_ref": "gh5ic0M"}']],
  restaurant_new_dropoff: [['get_ticket_details', { ticket_ref: 'cmYq04O' }, '"dropoff": {"line_one": "5 Orchard Rd"']],
  restaurant_bigger_table_and_tip: [
    ['get_ticket_details', { ticket_ref: 'tu3v0ld' }, '"table_info": {"zone": "Terrace", "table_no": "T4", "seat_count": 4}'],
    ['get_ticket_details', { ticket_ref: 'tu3v0ld' }, '{"kind": "tip", "total": 3.5, "instrument_ref": "RRoIuk2"}'],
  ],
  school_register_fall: [['get_registration_details', { registration_id: 'REG001' }, '"grading_option": "pass/fail", "tuition": 1500}']],
  school_drop_course_refund: [['get_registration_details', { registration_id: 'GO1ZSB7' }, '{"payment_id": "PAY-0002", "amount": -1150}']],
  school_cancel_and_pay: [['get_registration_details', { registration_id: 'X5EHB0C' }, '"courses": []']],
  travel_book_lapland: [['get_booking_details', { booking_id: 'TAU001' }, '"total_price": 37500.0']],
  travel_move_departure: [['get_booking_details', { booking_id: 'BKG-SE-001' }, '"departure_date": "26-01-10"']],
  travel_meeting_and_rooming: [
    ['get_booking_details', { booking_id: 'BKG-SE-001' }, '"rooming": {"room_type": "suite", "occupancy": 2}'],
    ['get_agent_details', { agent_id: 'TOQOWH5' }, '"25-10-15": {"slots": ["10:00-12:00"]'],
  ],
  weather_verify_boston_day: [['get_forecast_details', { forecast_id: 'fcst_001' }, '"2025-09-03": {"status": "verified", "actual_high_c": 24.5, "actual_low_c": 17.0']],
  weather_revise_fresno: [['get_forecast_details', { forecast_id: '78' }, '"2025-09-05": {"status": "revised", "actual_high_c": 38.2']],
  weather_dallas_now_and_verify: [['get_forecast_details', { forecast_id: '53_1' }, '"2025-09-03": {"status": "verified", "actual_high_c": 35.0']],
};

it('registers all ten of ToolScale\'s domains', () => {
  expect([...TOOLSCALE_DOMAIN_NAMES].sort()).toEqual(['bank', 'basketball', 'ecommerce', 'medicine', 'movie', 'railway', 'restaurant', 'school', 'travel', 'weather']);
});

describe.each(TOOLSCALE_DOMAIN_NAMES)('%s', (name) => {
  const reference = parsePyJson(readFileSync(path.join(REFERENCE, `${name}.json`), 'utf8')) as Recorded;
  const domain = loadDomain(name);

  it("answers every recorded call with τ²'s text and leaves τ²'s database hash after each", async () => {
    const env = domain.newEnvironment();
    expect(await env.dbHash()).toBe(reference.get('initial_hash'));
    const problems: string[] = [];
    const calls = reference.get('calls') as Recorded[];
    for (const [i, call] of calls.entries()) {
      if (call.get('name') === '__update_db__') {
        env.updateDb('assistant', call.get('arguments') as Recorded);
        if ((await env.dbHash()) !== call.get('hash')) problems.push(`call ${i} __update_db__: the database hash differs from τ²'s after it`);
        continue;
      }
      const message = env.getResponse({ id: String(i), name: call.get('name') as string, arguments: call.get('arguments') as Recorded, requestor: 'assistant' });
      const where = `call ${i} ${call.get('name') as string}`;
      if (!sameText(message.content ?? '', call)) problems.push(`${where} returned\n${message.content}\nwhere τ² returned\n${(call.get('content') ?? call.get('content_head')) as string}`);
      if (message.error !== call.get('error')) problems.push(`${where}: error ${message.error}, τ² ${call.get('error') as boolean}`);
      if ((await env.dbHash()) !== call.get('hash')) problems.push(`${where}: the database hash differs from τ²'s after it`);
    }
    expect(problems).toEqual([]);
    expect(calls.filter((c) => c.get('error') === true).length).toBeGreaterThan(0);
  });

  it("offers the agent τ²'s tool schemas, one per tool of the toolkit, in its order", () => {
    expect(domain.agentTools.map((t) => t.name)).toEqual(domain.newEnvironment().tools.toolNames());
  });

  it("runs each example task's golden actions without error to τ²'s final database, changed as the task intends", async () => {
    const recorded = new Map((reference.get('tasks') as Recorded[]).map((t) => [t.get('id') as string, t]));
    expect(domain.tasks.length).toBeGreaterThanOrEqual(3);
    const initial = await domain.newEnvironment().dbHash();
    for (const task of domain.tasks) {
      const before = domain.newEnvironment();
      const env = domain.newEnvironment();
      for (const action of task.evaluationCriteria!.actions!) env.makeToolCall(action.name, action.requestor, action.arguments);
      const hash = await env.dbHash();
      expect(hash, task.id).not.toBe(initial);
      expect(hash, task.id).toBe(recorded.get(task.id)?.get('hash'));
      expect(recorded.get(task.id)?.get('errors'), task.id).toEqual([]);
      const checks = INTENDED[task.id];
      expect(checks, `${task.id}: no intended change written`).toBeDefined();
      for (const [tool, args, text] of checks!) {
        expect(read(before, tool, args), `${task.id}: ${text} already there`).not.toContain(text);
        expect(read(env, tool, args), `${task.id}: ${tool}`).toContain(text);
      }
    }
  });
});
