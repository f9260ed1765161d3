// ToolScale's ten domains (the paper's training environments, vendored in ToolOrchestra's τ²-Bench
// copy): each one's database schema and toolkit, and loading one from its files. A domain's files
// are its db.json and policy.md (τ²'s data), tool-schemas.json (what τ² offers the agent, made from
// the reference by e2e/fixtures/toolscale/reference_toolscale.py) and tasks.json (ours: ToolScale
// ships no tasks). Pure TypeScript.

import type { ModelSchema } from '../model.ts';
import type { TableSeed, TableToolkit, Tables } from '../tableSeed.ts';
import { BankDbSchema, type BankDb } from './bank/model.ts';
import { BankTools } from './bank/tools.ts';
import { BasketballDbSchema, type BasketballDb } from './basketball/model.ts';
import { BasketballTools } from './basketball/tools.ts';
import { ECommerceDbSchema, type ECommerceDb } from './ecommerce/model.ts';
import { ECommerceTools } from './ecommerce/tools.ts';
import { MedicineDbSchema, type MedicineDb } from './medicine/model.ts';
import { MedicineTools } from './medicine/tools.ts';
import { MovieDbSchema, type MovieDb } from './movie/model.ts';
import { MovieTheaterTools } from './movie/tools.ts';
import { TrainDbSchema, type TrainDb } from './railway/model.ts';
import { RailwayTools } from './railway/tools.ts';
import { RestaurantDbSchema, type RestaurantDb } from './restaurant/model.ts';
import { RestaurantTools } from './restaurant/tools.ts';
import { SchoolDbSchema, type SchoolDb } from './school/model.ts';
import { SchoolTools } from './school/tools.ts';
import { TravelDbSchema, type TravelDb } from './travel/model.ts';
import { TravelAgencyTools } from './travel/tools.ts';
import { WeatherDbSchema, type WeatherDb } from './weather/model.ts';
import { WeatherTools } from './weather/tools.ts';
import { parseSeed, toolScaleEnvironment } from './common.ts';
import type { Tau2Environment } from '../environment.ts';

export interface ToolScaleOptions {
  /** The clock of the tools that stamp the time (bank): the wall clock unless a test fixes it. */
  now?: () => Date;
}

interface DomainSpec<Db extends Tables> {
  schema: ModelSchema;
  tools(seed: TableSeed<Db>, options: ToolScaleOptions): TableToolkit<Db>;
}

const spec = <Db extends Tables>(s: DomainSpec<Db>): DomainSpec<Tables> => s as unknown as DomainSpec<Tables>;

export const TOOLSCALE_DOMAINS = {
  bank: spec<BankDb>({ schema: BankDbSchema, tools: (seed, o) => new BankTools(seed, o.now) }),
  basketball: spec<BasketballDb>({ schema: BasketballDbSchema, tools: (seed) => new BasketballTools(seed) }),
  ecommerce: spec<ECommerceDb>({ schema: ECommerceDbSchema, tools: (seed) => new ECommerceTools(seed) }),
  medicine: spec<MedicineDb>({ schema: MedicineDbSchema, tools: (seed) => new MedicineTools(seed) }),
  movie: spec<MovieDb>({ schema: MovieDbSchema, tools: (seed) => new MovieTheaterTools(seed) }),
  railway: spec<TrainDb>({ schema: TrainDbSchema, tools: (seed) => new RailwayTools(seed) }),
  restaurant: spec<RestaurantDb>({ schema: RestaurantDbSchema, tools: (seed) => new RestaurantTools(seed) }),
  school: spec<SchoolDb>({ schema: SchoolDbSchema, tools: (seed) => new SchoolTools(seed) }),
  travel: spec<TravelDb>({ schema: TravelDbSchema, tools: (seed) => new TravelAgencyTools(seed) }),
  weather: spec<WeatherDb>({ schema: WeatherDbSchema, tools: (seed) => new WeatherTools(seed) }),
};

export type ToolScaleDomainName = keyof typeof TOOLSCALE_DOMAINS;
export const TOOLSCALE_DOMAIN_NAMES = Object.keys(TOOLSCALE_DOMAINS) as ToolScaleDomainName[];
const FILES = ['db.json', 'tasks.json', 'policy.md', 'tool-schemas.json'] as const;
/** Each domain's files, as tau2/domains.ts lists those of every τ² domain (it registers these). */
export const TOOLSCALE_DOMAIN_FILES = Object.fromEntries(TOOLSCALE_DOMAIN_NAMES.map((name) => [name, FILES])) as Record<ToolScaleDomainName, typeof FILES>;

export function isToolScaleDomain(name: string): name is ToolScaleDomainName {
  return Object.hasOwn(TOOLSCALE_DOMAINS, name);
}

/** Parses the domain's db.json once; the result makes a fresh environment per call, whose tools
 * read `clock` (a rollout's, tau2/rolloutClock.ts) when one is given, else `options.now`. */
export function toolScaleEnvironments(name: ToolScaleDomainName, dbText: string, policy: string, options: ToolScaleOptions = {}): (clock?: () => Date) => Tau2Environment {
  const { schema, tools } = TOOLSCALE_DOMAINS[name];
  const seed = parseSeed<Tables>(schema, dbText);
  return (clock) => toolScaleEnvironment(name, policy, tools(seed, clock ? { ...options, now: clock } : options), schema);
}
