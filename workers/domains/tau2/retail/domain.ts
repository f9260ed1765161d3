// τ²-Bench retail as a domain: its database parsed once, and a fresh environment per rollout
// over it (retail/tools.ts explains why that is cheap). Pure TypeScript.

import { Tau2Environment } from '../environment.ts';
import { validateModel } from '../model.ts';
import { parsePyJson } from '../pyJson.ts';
import type { PyModel } from '../pyValues.ts';
import { RetailDbSchema, type RetailDb } from './model.ts';
import { RetailSeed, RetailTools } from './tools.ts';

/** db.json, validated as τ²'s RetailDB (every order gains its null fields, every price is a float). */
export function parseRetailDb(text: string): RetailSeed {
  return new RetailSeed(validateModel<RetailDb & PyModel>(RetailDbSchema, parsePyJson(text)));
}

export function retailEnvironment(seed: RetailSeed, policy: string): Tau2Environment {
  return new Tau2Environment({
    domainName: 'retail',
    policy,
    tools: new RetailTools(seed),
    userTools: null,
    dbSchema: RetailDbSchema,
    userDbSchema: null,
  });
}
