// ToolScale restaurant's tools (tau2/domains/restaurant/tools.py), ported call for call with the
// same errors, results and quirks: a cancellation's reason is dropped; a modified plate keeps its
// line's label and dish; an old plate that no dish lists fails with the dish lookup's own message,
// a new one with "New plate … not found"; the price difference is rounded before it is charged or
// refunded. Pure TypeScript.

import { construct } from '../../model.ts';
import { PyError, valueError } from '../../pyErrors.ts';
import { pyJsonDumps } from '../../pyJson.ts';
import { arith, compare, count, iterate, len, lookup, pyAbsolute, pyFloatOf, zip } from '../../pyOps.ts';
import { pyEquals, pyFloat, pyRound, pyStr, type PyFloat, type PyModel, type PyValue } from '../../pyValues.ts';
import { TableToolkit } from '../../tableSeed.ts';
import { fn, type ToolFunction } from '../../toolkit.ts';
import { type Args, calculateTool, findIdByEmail, findIdByNameZip, transferTool } from '../common.ts';
import { PatronLocation, TableInfo, TicketCharge, type ChargeValue, type DishValue, type PatronValue, type PlateValue, type RestaurantDb, type TicketValue } from './model.ts';

export class RestaurantTools extends TableToolkit<RestaurantDb> {
  readonly className = 'RestaurantTools';

  readonly #ticket = this.rowsOf<TicketValue>('service_tickets', 'Ticket not found');
  readonly #patron = this.rowsOf<PatronValue>('patron_registry', 'Patron not found');

  #assertInstrument(guestRef: PyValue, instrumentRef: PyValue): void {
    if (lookup(this.#patron(guestRef).saved_instruments, instrumentRef) === undefined) throw valueError('Payment instrument not found');
  }

  /** The ticket as this rollout's own, once it is known to be in 'placed' state. */
  /** The ticket, read only; refused unless it is still placed (the only state that can change). */
  #placedTicket(ref: PyValue): TicketValue {
    const found = this.#ticket(ref);
    if (found.state !== 'placed') throw valueError('Non-placed ticket cannot be modified');
    return found;
  }

  #ownPlacedTicket(ref: PyValue): TicketValue {
    this.#placedTicket(ref);
    return this.own('service_tickets', ref as string);
  }

  #dishByPlate(plateRef: PyValue): DishValue {
    for (const dish of this.db.menu_board.values()) if (lookup((dish as DishValue).selections, plateRef) !== undefined) return dish as DishValue;
    throw valueError('Plate not found in any dish');
  }

  readonly functions: Readonly<Record<string, ToolFunction<RestaurantTools>>> = {
    calculate: calculateTool,
    transfer_to_human_agents: transferTool,
    get_ticket_details: fn(['ticket_ref'], (kit, a) => kit.#ticket(a.ticket_ref!), 'read'),
    get_dish_details: fn(['dish_ref'], (kit, a) => kit.row('menu_board', a.dish_ref!, 'Dish not found'), 'read'),
    get_patron_details: fn(['guest_ref'], (kit, a) => kit.#patron(a.guest_ref!), 'read'),
    list_all_dishes: fn([], (kit) => kit.#listDishes(), 'read'),
    find_patron_ref_by_email: fn(['email'], (kit, a) => findIdByEmail(kit.db.patron_registry, (p) => (p as PatronValue).contact_email, a.email!, 'Patron not found'), 'read'),
    find_patron_ref_by_name_zip: fn(['given', 'family', 'postal_code'], (kit, a) => kit.#findByNameZip(a), 'read'),
    cancel_placed_ticket: fn(['ticket_ref', 'reason'], (kit, a) => kit.#cancel(a.ticket_ref!), 'write'),
    modify_placed_ticket_dropoff: fn(['ticket_ref', 'line_one', 'line_two', 'municipality', 'province', 'nation', 'postal_code'], (kit, a) => kit.#modifyDropoff(a), 'write'),
    modify_placed_ticket_table: fn(['ticket_ref', 'zone', 'table_no', 'seat_count'], (kit, a) => kit.#modifyTable(a), 'write'),
    modify_placed_ticket_items: fn(['ticket_ref', 'plate_refs', 'new_plate_refs', 'instrument_ref'], (kit, a) => kit.#modifyItems(a), 'write'),
    modify_placed_ticket_instrument: fn(['ticket_ref', 'instrument_ref'], (kit, a) => kit.#modifyInstrument(a), 'write'),
    add_tip_to_ticket: fn(['ticket_ref', 'tip_total', 'instrument_ref'], (kit, a) => kit.#addTip(a), 'write'),
  };

  #listDishes(): string {
    const dishes = [...this.db.menu_board.values()] as DishValue[];
    return pyJsonDumps(new Map<string, PyValue>(dishes.map((d) => [d.title, d.dish_ref])), { sortKeys: true });
  }

  #findByNameZip(a: Args): string {
    const fields = (row: PyModel): [PyValue, PyValue, PyValue] => [(row as PatronValue).identity.given, (row as PatronValue).identity.family, (row as PatronValue).location.postal_code];
    return findIdByNameZip(this.db.patron_registry, fields, a.given!, a.family!, a.postal_code!, 'Patron not found');
  }

  #cancel(ref: PyValue): TicketValue {
    if (this.#ticket(ref).state !== 'placed') throw valueError("Only tickets in 'placed' state can be cancelled");
    const ticket = this.own<TicketValue>('service_tickets', ref as string);
    const refunds = ticket.charges.filter((ch) => ch.kind === 'payment').map((ch) => charge('refund', ch.total, ch.instrument_ref));
    ticket.charges.push(...refunds);
    ticket.state = 'cancelled';
    return ticket;
  }

  #modifyDropoff(a: Args): TicketValue {
    const found = this.#placedTicket(a.ticket_ref!);
    if (found.service_mode !== 'delivery') throw valueError('Only delivery tickets have a dropoff address');
    const keys = ['line_one', 'line_two', 'municipality', 'province', 'nation', 'postal_code'];
    const dropoff = construct(PatronLocation, Object.fromEntries(keys.map((k) => [k, a[k]!])));
    const ticket = this.#ownPlacedTicket(a.ticket_ref!);
    ticket.dropoff = dropoff;
    return ticket;
  }

  #modifyTable(a: Args): TicketValue {
    const found = this.#placedTicket(a.ticket_ref!);
    if (found.service_mode !== 'dine_in') throw valueError('Only dine-in tickets have table information');
    const table = construct(TableInfo, { zone: a.zone!, table_no: a.table_no!, seat_count: a.seat_count! });
    const ticket = this.#ownPlacedTicket(a.ticket_ref!);
    ticket.table_info = table;
    return ticket;
  }

  #modifyItems(a: Args): TicketValue {
    const found = this.#placedTicket(a.ticket_ref!);
    this.#assertInstrument(found.guest_ref, a.instrument_ref!);
    const onTicket = found.line_entries.map((e) => e.plate_ref);
    for (const pr of iterate(a.plate_refs!)) {
      if (count(a.plate_refs!, pr) > count(onTicket, pr)) throw valueError(`Plate ${pyStr(pr)} not found in the ticket the requested number of times`);
    }
    if (len(a.plate_refs!) !== len(a.new_plate_refs!)) throw valueError('The number of plates to be modified should match');
    let diff: number | PyFloat = pyFloat(0);
    const used = new Map<string, number>();
    const changes: [number, PlateValue][] = [];
    for (const [oldRef, newRef] of zip(a.plate_refs!, a.new_plate_refs!)) {
      const skip = used.get(oldRef as string) ?? 0;
      const index = found.line_entries.map((e, i) => [e.plate_ref, i] as const).filter(([ref]) => pyEquals(ref, oldRef))[skip]?.[1];
      if (index === undefined) throw valueError(`Plate ${pyStr(oldRef)} not found`);
      used.set(oldRef as string, skip + 1);
      const oldDish = this.#dishByPlate(oldRef);
      let newDish: DishValue;
      try {
        newDish = this.#dishByPlate(newRef);
      } catch (error) {
        if (error instanceof PyError && error.pyType === 'ValueError') throw valueError(`New plate ${pyStr(newRef)} not found`);
        throw error;
      }
      if (oldDish.dish_ref !== newDish.dish_ref) throw valueError('New plate must be from the same dish as the original');
      const plate = newDish.selections.get(newRef as string) as PlateValue;
      if (!plate.served_today) throw valueError(`New plate ${pyStr(newRef)} is not available today`);
      diff = arith('+', diff, arith('-', plate.cost, found.line_entries[index]!.cost));
      changes.push([index, plate]);
    }
    diff = pyRound(diff, 2);
    const ticket = this.own<TicketValue>('service_tickets', a.ticket_ref as string);
    if (!pyEquals(diff, 0)) ticket.charges.push(charge(compare(diff, 0, '>') ? 'payment' : 'refund', pyAbsolute(diff), a.instrument_ref!));
    for (const [index, plate] of changes) {
      ticket.line_entries[index]!.plate_ref = plate.plate_ref;
      ticket.line_entries[index]!.cost = plate.cost;
    }
    return ticket;
  }

  #modifyInstrument(a: Args): TicketValue {
    const found = this.#placedTicket(a.ticket_ref!);
    this.#assertInstrument(found.guest_ref, a.instrument_ref!);
    const payments = found.charges.filter((ch) => ch.kind === 'payment');
    if (payments.length !== 1) throw valueError('There should be exactly one payment charge for a placed ticket');
    const current = payments[0]!;
    if (pyEquals(current.instrument_ref, a.instrument_ref!)) throw valueError('The new instrument should be different from the current one');
    const ticket = this.own<TicketValue>('service_tickets', a.ticket_ref as string);
    ticket.charges.push(charge('payment', current.total, a.instrument_ref!), charge('refund', current.total, current.instrument_ref));
    return ticket;
  }

  #addTip(a: Args): TicketValue {
    const found = this.#ticket(a.ticket_ref!);
    if (found.state === 'cancelled') throw valueError('Cannot add tip to a cancelled ticket');
    if (compare(a.tip_total!, 0, '<')) throw valueError('Tip amount must be non-negative');
    this.#assertInstrument(found.guest_ref, a.instrument_ref!);
    const tip = charge('tip', pyRound(pyFloatOf(a.tip_total!), 2), a.instrument_ref!);
    const ticket = this.own<TicketValue>('service_tickets', a.ticket_ref as string);
    ticket.charges.push(tip);
    return ticket;
  }
}

const charge = (kind: string, total: PyValue, instrumentRef: PyValue): ChargeValue => construct<ChargeValue>(TicketCharge, { kind, total, instrument_ref: instrumentRef });
