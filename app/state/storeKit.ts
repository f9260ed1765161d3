// What every store here is made of: a zustand store (state only), made by its module's factory,
// and its actions, written once at module level as functions of the store and bound to each store
// the factory makes. So no state lives in a module, and a test makes a fresh store.

import { createStore, type StoreApi } from 'zustand/vanilla';

/** Actions written as functions of the store they act on (a zustand store, with what else it keeps). */
export type ActionsOf<T> = Record<string, (store: T, ...args: never[]) => unknown>;

/** The same actions bound to one store. */
export type Bound<D> = { [K in keyof D]: D[K] extends (store: never, ...args: infer A) => infer R ? (...args: A) => R : never };

/** A store with its bound actions. */
export type StoreWithActions<S, D> = StoreApi<S> & { actions: Bound<D> };

export function bindActions<T, D extends ActionsOf<T>>(store: T, definitions: D): Bound<D> {
  const bound: Record<string, unknown> = {};
  for (const [name, action] of Object.entries(definitions)) bound[name] = (...args: never[]) => action(store, ...args);
  return bound as Bound<D>;
}

/** A plain store of `initial` with `definitions` bound to it. */
export function storeWithActions<S, D extends ActionsOf<StoreApi<S>>>(initial: S, definitions: D): StoreWithActions<S, D> {
  const store = createStore<S>()(() => initial);
  return Object.assign(store, { actions: bindActions(store, definitions) });
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
