// τ²-Bench telecom as a domain: the carrier's database and the user's phone, parsed once; a
// fresh copy of both per rollout (they are small), and τ²'s TelecomEnvironment.sync_tools, which
// after every step brings the phone in line with the account (line active, roaming allowed, data
// used up, a bill to pay). Pure TypeScript.

import { Tau2Environment } from '../environment.ts';
import { construct, deepCopy, validateModel } from '../model.ts';
import { parsePyJson } from '../pyJson.ts';
import { numberOf } from '../pyValues.ts';
import { LINE_STATUS, PaymentRequest, TelecomDbSchema, TelecomUserDbSchema } from './model.ts';
import { randomBillId, TelecomTools, type TelecomDb } from './tools.ts';
import { TelecomUserTools, type TelecomUserDb } from './userTools.ts';

export interface TelecomSeed {
  db: TelecomDb;
  userDb: TelecomUserDb;
}

export function parseTelecomDbs(dbText: string, userDbText: string): TelecomSeed {
  return { db: validateModel<TelecomDb>(TelecomDbSchema, parsePyJson(dbText)), userDb: validateModel<TelecomUserDb>(TelecomUserDbSchema, parsePyJson(userDbText)) };
}

/** The agent's policy as τ² assembles it (the "manual" tech-support policy). */
export function telecomPolicy(mainPolicy: string, techSupportManual: string): string {
  return `<main_policy>\n${mainPolicy}\n</main_policy>\n<tech_support_policy>\n${techSupportManual}\n</tech_support_policy>`;
}

function syncTelecom(environment: Tau2Environment): void {
  const tools = environment.tools as TelecomTools;
  const user = environment.userTools as TelecomUserTools;
  const surroundings = user.surroundings;
  const phone = surroundings.phone_number;
  if (phone === null) return;
  const line = tools.lineByPhone(phone);
  surroundings.line_active = line.status === LINE_STATUS.active;
  surroundings.roaming_allowed = Boolean(line.roaming_enabled);
  const plan = tools.planById(line.plan_id!);
  surroundings.mobile_data_usage_exceeded = numberOf(line.data_used_gb!)! >= numberOf(plan.data_limit_gb!)! + numberOf(line.data_refueling_gb!)!;
  const request = surroundings.payment_request;
  if (request !== null && request.paid) {
    tools.setBillToPaid(request.bill_id);
    surroundings.payment_request = null;
  }
  if (surroundings.payment_request === null) {
    const bills = tools.billsAwaitingPayment(tools.customerByPhone(phone));
    const bill = bills[0];
    if (bill) surroundings.payment_request = construct(PaymentRequest, { bill_id: bill.bill_id!, amount_due: bill.total_due! }) as TelecomUserDb['surroundings']['payment_request'];
  }
}

export function telecomEnvironment(seed: TelecomSeed, policy: string, newBillId: () => string = randomBillId): Tau2Environment {
  return new Tau2Environment({
    domainName: 'telecom',
    policy,
    tools: new TelecomTools(deepCopy(seed.db), newBillId),
    userTools: new TelecomUserTools(deepCopy(seed.userDb)),
    dbSchema: TelecomDbSchema,
    userDbSchema: TelecomUserDbSchema,
    sync: syncTelecom,
  });
}
