// What every store here is made of: a zustand store (state only), made by its module's factory,
// and its actions, written once at module level as functions of the store and bound to each store
// the factory makes. So no state lives in a module, and a test makes a fresh store. There is one
// way to make one, `makeStore`: the zustand store (`plainStore(initial)`, or one made with a
// middleware such as persist), what the store keeps beside its state, and its actions.

import { createStore, type StoreApi } from 'zustand/vanilla';

/** Actions written as functions of the store they act on (a zustand store, with what else it keeps). */
export type ActionsOf<T> = Record<string, (store: T, ...args: never[]) => unknown>;

/** The same actions bound to one store. */
export type Bound<D> = { [K in keyof D]: D[K] extends (store: never, ...args: infer A) => infer R ? (...args: A) => R : never };

/** A store with its bound actions. */
export type StoreWithActions<S, D> = StoreApi<S> & { actions: Bound<D> };

function bindActions<T, D extends ActionsOf<T>>(store: T, definitions: D): Bound<D> {
  const bound: Record<string, unknown> = {};
  for (const [name, action] of Object.entries(definitions)) bound[name] = (...args: never[]) => action(store, ...args);
  return bound as Bound<D>;
}

/** A zustand store of `initial`, with no middleware. */
export function plainStore<S>(initial: S): StoreApi<S> {
  return createStore<S>()(() => initial);
}

/** The one way to make a store: `store` (state only), with `kept` beside its state (what its
 * actions keep that no component renders) and `definitions` bound to it as its actions. */
export function makeStore<T extends Pick<StoreApi<unknown>, 'getState'>, K extends object, D extends ActionsOf<T & K>>(store: T, kept: K, definitions: D): T & K & { actions: Bound<D> } {
  const withKept = Object.assign(store, kept);
  return Object.assign(withKept, { actions: bindActions(withKept, definitions) });
}

/** A notice a tab shows over its content: what went well, or each problem on its line. */
export type Notice = { kind: 'ok' | 'problem'; lines: string[] };

/** The actions of a store that shows a Notice. */
export const noticeActions = {
  notice(store: StoreApi<{ notice: Notice | null }>, kind: Notice['kind'], lines: string[]): void {
    store.setState({ notice: { kind, lines } });
  },
  clearNotice(store: StoreApi<{ notice: Notice | null }>): void {
    store.setState({ notice: null });
  },
};
