// Where τ²'s airline database comes from: the user's own copy (τ²-Bench's
// data/tau2/domains/airline/db.json, about 7 MB, not shipped here: no copy of τ²-Bench this project
// may read holds it), chosen on disk or downloaded on request from τ²-Bench's public repository.
// Names and caps only; the hosts read and keep it. Pure TypeScript.

/** τ²-Bench's airline database in its public repository (raw file). */
export const AIRLINE_DB_URL = 'https://raw.githubusercontent.com/sierra-research/tau2-bench/main/data/tau2/domains/airline/db.json';

export const AIRLINE_DB_LIMITS = {
  /** τ²'s is about 7 MB; a file over this is not τ²'s airline database. */
  bytes: 64 * 1024 * 1024,
} as const;
