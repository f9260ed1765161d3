// ToolScale basketball's tools (tau2/domains/basketball/tools.py), ported call for call with the
// same errors, results and quirks: a score summary or a record is a dict, so τ² renders its
// numbers as strings; an address is written field by field without validation; a score grows by
// whatever `points` equalled the event's value (2.0 makes it a float). Pure TypeScript.

import { construct } from '../../model.ts';
import { valueError } from '../../pyErrors.ts';
import { pyJsonDumps } from '../../pyJson.ts';
import { arith, compare, contains, getItem, inSet, lower, sorted } from '../../pyOps.ts';
import { pyEquals, pyTruthy, type PyValue } from '../../pyValues.ts';
import { TableToolkit } from '../../tableSeed.ts';
import { fn, type ToolFunction } from '../../toolkit.ts';
import { type Args, assignFields, calculateTool, findIdByEmail, optional, transferTool } from '../common.ts';
import { GameScoringEvent, type BasketballDb, type ClubValue, type GameValue, type PlayerValue } from './model.ts';

const ALLOWED_TRANSITIONS: Record<string, string[]> = { scheduled: ['in_progress', 'postponed'], postponed: ['scheduled'], in_progress: ['final'], final: [] };
const EVENT_POINTS = new Map<string, PyValue>([
  ['2PT', 2],
  ['3PT', 3],
  ['FT', 1],
]);

export class BasketballTools extends TableToolkit<BasketballDb> {
  readonly className = 'BasketballTools';

  readonly #club = this.rowsOf<ClubValue>('clubs', 'Club not found');
  readonly #player = this.rowsOf<PlayerValue>('players', 'Player not found');
  readonly #game = this.rowsOf<GameValue>('games', 'Game not found');

  /** The club's games, each looked up (a missing one raises), kept when `keep` says so. */
  #games(ids: string[], keep: (game: GameValue) => boolean): [string, GameValue][] {
    return ids.map((id) => [id, this.#game(id)] as [string, GameValue]).filter(([, game]) => keep(game));
  }

  readonly functions: Readonly<Record<string, ToolFunction<BasketballTools>>> = {
    calculate: calculateTool,
    transfer_to_human_agents: transferTool,
    get_club_details: fn(['club_id'], (kit, a) => kit.#club(a.club_id!), 'read'),
    get_player_details: fn(['player_id'], (kit, a) => kit.#player(a.player_id!), 'read'),
    get_game_details: fn(['game_id'], (kit, a) => kit.#game(a.game_id!), 'read'),
    list_all_clubs: fn([], (kit) => kit.#listClubs(() => true), 'read'),
    list_clubs_by_league: fn(['league'], (kit, a) => kit.#clubsByLeague(a.league!), 'read'),
    find_player_id_by_email: fn(['email'], (kit, a) => findIdByEmail(kit.db.players, (p) => (p as PlayerValue).email, a.email!, 'Player not found'), 'read'),
    find_player_id_by_name: fn(['first_name', 'last_name'], (kit, a) => kit.#findByName(a), 'read'),
    list_club_roster_ids: fn(['club_id', { name: 'active_only', default: () => true }], (kit, a) => kit.#rosterIds(a), 'read'),
    get_game_box_score: fn(['game_id'], (kit, a) => kit.#game(a.game_id!).box_score, 'read'),
    get_club_schedule: fn(['club_id', optional('season'), optional('status')], (kit, a) => kit.#schedule(a), 'read'),
    get_game_score: fn(['game_id'], (kit, a) => kit.#score(a.game_id!), 'read'),
    get_game_timeline: fn(['game_id'], (kit, a) => kit.#game(a.game_id!).scoring_history, 'read'),
    get_player_total_points: fn(['player_id', optional('season')], (kit, a) => kit.#totalPoints(a), 'read'),
    get_club_record: fn(['club_id', optional('season')], (kit, a) => kit.#record(a), 'read'),
    modify_player_address: fn(['player_id', 'street', 'city', 'state', 'country', 'zip'], (kit, a) => kit.#modifyAddress(a), 'write'),
    update_game_status: fn(['game_id', 'new_status'], (kit, a) => kit.#updateStatus(a), 'write'),
    record_scoring_event: fn(['game_id', 'event_type', 'points', 'club_id', 'player_id', 'timestamp'], (kit, a) => kit.#recordScoring(a), 'write'),
  };

  /** `json.dumps({club.name: club.club_id …}, sort_keys=True)` over the clubs `keep` accepts. */
  #listClubs(keep: (club: ClubValue) => boolean): string {
    const names = new Map<string, PyValue>();
    for (const value of this.db.clubs.values()) {
      const club = value as ClubValue;
      if (keep(club)) names.set(club.name, club.club_id);
    }
    return pyJsonDumps(names, { sortKeys: true });
  }

  #clubsByLeague(league: PyValue): string {
    const wanted = lower(league);
    const clubs = [...this.db.clubs.values()] as ClubValue[];
    if (!clubs.some((club) => lower(club.league) === wanted)) throw valueError('No clubs found for the specified league');
    return this.#listClubs((club) => lower(club.league) === wanted);
  }

  #findByName(a: Args): string {
    const first = lower(a.first_name!);
    const last = lower(a.last_name!);
    const matches = [...this.db.players].filter(([, p]) => lower((p as PlayerValue).name.first_name) === first && lower((p as PlayerValue).name.last_name) === last);
    if (matches.length === 0) throw valueError('Player not found');
    if (matches.length > 1) throw valueError('Multiple players found, please provide more information');
    return matches[0]![0];
  }

  #rosterIds(a: Args): PyValue[] {
    const club = this.#club(a.club_id!);
    const ids = [...club.roster].filter(([, entry]) => !pyTruthy(a.active_only!) || pyTruthy((entry as { active: boolean }).active)).map(([id]) => id);
    return sorted(ids);
  }

  #schedule(a: Args): string[] {
    const club = this.#club(a.club_id!);
    const keep = (g: GameValue) => (a.season === null || pyEquals(g.season, a.season!)) && (a.status === null || pyEquals(g.status, a.status!));
    return this.#games(club.games, keep).map(([id]) => id);
  }

  #score(gameId: PyValue): Map<string, PyValue> {
    const { status, clubs } = this.#game(gameId);
    const side = (entry: GameValue['clubs']['home']) => new Map<string, PyValue>([['club_id', entry.club_id], ['name', entry.name], ['score', entry.score]]);
    return new Map<string, PyValue>([['status', status], ['home', side(clubs.home)], ['away', side(clubs.away)]]);
  }

  #totalPoints(a: Args): number {
    const player = this.#player(a.player_id!);
    let total = 0;
    for (const [, game] of this.#games(player.games, (g) => a.season === null || pyEquals(g.season, a.season!))) {
      for (const entry of game.box_score) if (pyEquals(entry.player_id, a.player_id!)) total += entry.points;
    }
    return total;
  }

  #record(a: Args): Map<string, PyValue> {
    const club = this.#club(a.club_id!);
    let wins = 0;
    let losses = 0;
    const final = (g: GameValue) => g.status === 'final' && (a.season === null || pyEquals(g.season, a.season!));
    for (const [, game] of this.#games(club.games, final)) {
      const { home, away } = game.clubs;
      const [us, them] = pyEquals(home.club_id, a.club_id!) ? [home, away] : pyEquals(away.club_id, a.club_id!) ? [away, home] : [null, null];
      if (us === null || them === null) continue;
      if (compare(us.score, them.score, '>')) wins += 1;
      else if (compare(us.score, them.score, '<')) losses += 1;
    }
    return new Map<string, PyValue>([['wins', wins], ['losses', losses]]);
  }

  #modifyAddress(a: Args): PlayerValue {
    this.#player(a.player_id!);
    const player = this.own<PlayerValue>('players', a.player_id as string);
    assignFields(player.address, a, ['street', 'city', 'state', 'country', 'zip']);
    return player;
  }

  #updateStatus(a: Args): GameValue {
    const game = this.#game(a.game_id!);
    if (pyEquals(a.new_status!, game.status)) return game;
    if (!contains(ALLOWED_TRANSITIONS[game.status]!, a.new_status!)) throw valueError('Invalid status transition');
    const owned = this.own<GameValue>('games', a.game_id as string);
    owned.status = a.new_status as string;
    return owned;
  }

  #recordScoring(a: Args): GameValue {
    const game = this.#game(a.game_id!);
    if (game.status !== 'in_progress') throw valueError('Scoring can only be recorded for games in progress');
    if (!pyEquals(a.points!, getItem(EVENT_POINTS, a.event_type!))) throw valueError('Points do not match the event type');
    if (!inSet([game.clubs.home.club_id, game.clubs.away.club_id], a.club_id!)) throw valueError('Club is not part of this game');
    this.#player(a.player_id!);
    const event = construct(GameScoringEvent, { event_type: a.event_type!, points: a.points!, club_id: a.club_id!, player_id: a.player_id!, timestamp: a.timestamp! });
    const owned = this.own<GameValue>('games', a.game_id as string);
    owned.scoring_history.push(event);
    const side = pyEquals(a.club_id!, owned.clubs.home.club_id) ? owned.clubs.home : owned.clubs.away;
    side.score = arith('+', side.score, a.points!);
    return owned;
  }
}
