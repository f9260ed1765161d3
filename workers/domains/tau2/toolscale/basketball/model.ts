// ToolScale basketball's data model (tau2/domains/basketball/data_model.py), field by field in its
// order. Pure TypeScript.

import { t } from '../../model.ts';
import type { PyModel, PyValue } from '../../pyValues.ts';
import { database, shape } from '../common.ts';

const Address = shape('Address', { street: t.str, city: t.str, country: t.str, state: t.str, zip: t.str });
const PlayerName = shape('PlayerName', { first_name: t.str, last_name: t.str });
const PlayerProfile = shape('PlayerProfile', { position: t.str, number: t.anyOf(t.int, t.str), height_cm: t.float, weight_kg: t.float });
const ClubArena = shape('ClubArena', { name: t.str, address: t.model(Address) });
const RosterEntry = shape('RosterEntry', { player_id: t.str, profile: t.model(PlayerProfile), active: t.bool, salary: t.float });
const Club = shape('Club', {
  name: t.str,
  club_id: t.str,
  league: t.str,
  city: t.str,
  arena: t.model(ClubArena),
  roster: t.dict(t.model(RosterEntry)),
  games: t.list(t.str),
});
const PlayerContractExtraInfo = shape('PlayerContractExtraInfo', { salary: t.float, years: t.int });
const PlayerContract = shape('PlayerContract', {
  source: t.choice(['draft', 'trade', 'free agency']),
  contract_id: t.str,
  club_id: t.str,
  start_date: t.str,
  end_date: t.str,
  extra_info: t.model(PlayerContractExtraInfo),
});
const Player = shape('Player', {
  player_id: t.str,
  name: t.model(PlayerName),
  address: t.model(Address),
  email: t.str,
  contracts: t.dict(t.model(PlayerContract)),
  games: t.list(t.str),
});
const GameClubEntry = shape('GameClubEntry', { name: t.str, club_id: t.str, score: t.int });
const GameClubs = shape('GameClubs', { home: t.model(GameClubEntry), away: t.model(GameClubEntry) });
const BoxScoreOptions = shape('BoxScoreOptions', { rebounds: t.int, assists: t.int, minutes: t.str });
const BoxScoreEntry = shape('BoxScoreEntry', { name: t.str, club_id: t.str, player_id: t.str, points: t.int, options: t.model(BoxScoreOptions) });
const GamePeriod = shape('GamePeriod', { period_number: t.int, event_ids: t.list(t.str), player_ids: t.list(t.str) });
export const GameScoringEvent = shape('GameScoringEvent', {
  event_type: t.choice(['1PT', '2PT', '3PT', 'FT']),
  points: t.int,
  club_id: t.str,
  player_id: t.str,
  timestamp: t.str,
});
const Game = shape('Game', {
  game_id: t.str,
  season: t.str,
  date: t.str,
  status: t.choice(['scheduled', 'in_progress', 'final', 'postponed']),
  venue: t.model(Address),
  clubs: t.model(GameClubs),
  box_score: t.list(t.model(BoxScoreEntry)),
  periods: t.list(t.model(GamePeriod)),
  scoring_history: t.list(t.model(GameScoringEvent)),
});
export const BasketballDbSchema = database('BasketballDB', { clubs: Club, players: Player, games: Game });

// The shapes the tools read and write (a model's dump form).
/** A score is an int, until a float's points are added to it. */
type ClubEntry = { name: string; club_id: string; score: PyValue };
export type ClubValue = PyModel & { name: string; club_id: string; league: string; roster: Map<string, PyValue>; games: string[] };
export type PlayerValue = PyModel & { name: { first_name: string; last_name: string }; email: string; address: PyModel; games: string[] };
export type GameValue = PyModel & {
  season: string;
  status: string;
  clubs: { home: ClubEntry; away: ClubEntry };
  box_score: (PyModel & { player_id: string; points: number })[];
  scoring_history: PyValue[];
};
export type BasketballDb = { clubs: Map<string, PyValue>; players: Map<string, PyValue>; games: Map<string, PyValue> };
