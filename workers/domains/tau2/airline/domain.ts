// τ²-Bench airline as a domain: the user's db.json (τ² ships it, we do not: docs/evaluation.md,
// "τ²-Bench airline on your own db.json") parsed once as τ²'s FlightDB, and a fresh environment
// per rollout over it. Pure TypeScript.

import { Tau2Environment } from '../environment.ts';
import type { TableSeed } from '../tableSeed.ts';
import { parseSeed } from '../toolscale/common.ts';
import { FlightDbSchema, type FlightDb } from './model.ts';
import { AirlineTools } from './tools.ts';

/** db.json, validated as τ²'s FlightDB (every extra key, missing field or wrong type refused in
 * pydantic's words). */
export function parseAirlineDb(text: string): TableSeed<FlightDb> {
  return parseSeed<FlightDb>(FlightDbSchema, text);
}

export function airlineEnvironment(seed: TableSeed<FlightDb>, policy: string): Tau2Environment {
  return new Tau2Environment({ domainName: 'airline', policy, tools: new AirlineTools(seed), userTools: null, dbSchema: FlightDbSchema, userDbSchema: null });
}
