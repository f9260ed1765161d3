// What the trace remembers about how it is shown (which steps are open, which one has focus,
// whose prompt is open). It lives outside the cards because a virtualised card unmounts when it
// scrolls away and must come back as it was.

import type { StoreApi } from 'zustand/vanilla';
import { makeStore, plainStore, type Bound } from '../../state/storeKit.ts';

export interface FocusRequest {
  step: number;
  /** Increases with every request, so asking twice for the same step focuses it twice. */
  seq: number;
}

export interface TraceUiState {
  runId: string | null;
  /** Whether the run's steps were laid out open (presenter view lays them out closed). */
  laidOutOpen: boolean;
  expandedByDefault: boolean;
  /** Steps opened or closed one by one, over the default. */
  overrides: Readonly<Record<number, boolean>>;
  /** Blocks inside steps (reasoning, an expert's reply): open or closed by "Expand all" and
   * "Collapse all"; null until then, when each follows its own default (open while it streams). */
  detailsOpenByDefault: boolean | null;
  /** Blocks opened or closed one by one, by their detail key (see `detailKey`). */
  detailOverrides: Readonly<Record<string, boolean>>;
  /** The step that takes Tab (roving tabindex) and that j/k move from. */
  focusedStep: number | null;
  /** A step that should take keyboard focus once it is on screen. */
  focusRequest: FocusRequest | null;
  /** The step whose "What the model saw" dialog is open. */
  dialogStep: number | null;
}

const initialState: TraceUiState = {
  runId: null,
  laidOutOpen: true,
  expandedByDefault: true,
  overrides: {},
  detailsOpenByDefault: null,
  detailOverrides: {},
  focusedStep: null,
  focusRequest: null,
  dialogStep: null,
};

export function isExpanded(state: TraceUiState, step: number): boolean {
  return state.overrides[step] ?? state.expandedByDefault;
}

/** Names a block inside a step: `step-2:reasoning`, `call-2-3:reply`. */
export function detailKey(owner: string, block: string): string {
  return `${owner}:${block}`;
}

/** Whether a block is open: the person's own choice, else what "Expand/Collapse all" set, else
 * the block's own default. */
export function isDetailOpen(state: TraceUiState, key: string, openByDefault: boolean): boolean {
  return state.detailOverrides[key] ?? state.detailsOpenByDefault ?? openByDefault;
}

/** The trace's store keeps a count of focus requests beside its state (see FocusRequest.seq). */
type Store = StoreApi<TraceUiState> & { focusSeq: number };

const traceUiActions = {
  /** Forgets the previous run's layout when a new run is shown, or when the steps are to be laid
   * out otherwise (open, or closed in presenter view). */
  showRun(store: Store, runId: string | null, open = true): void {
    const state = store.getState();
    if (state.runId !== runId || state.laidOutOpen !== open) store.setState({ ...initialState, runId, laidOutOpen: open, expandedByDefault: open });
  },
  /** Opens every step and every block inside them. */
  expandAll(store: Store): void {
    store.setState({ expandedByDefault: true, overrides: {}, detailsOpenByDefault: true, detailOverrides: {} });
  },
  /** Closes every step and every block inside them. */
  collapseAll(store: Store): void {
    store.setState({ expandedByDefault: false, overrides: {}, detailsOpenByDefault: false, detailOverrides: {} });
  },
  setDetailOpen(store: Store, key: string, open: boolean): void {
    store.setState((state) => ({ detailOverrides: { ...state.detailOverrides, [key]: open } }));
  },
  setExpanded(store: Store, step: number, expanded: boolean): void {
    store.setState((state) => ({ overrides: { ...state.overrides, [step]: expanded } }));
  },
  toggle(store: Store, step: number): void {
    traceUiActions.setExpanded(store, step, !isExpanded(store.getState(), step));
  },
  /** Moves keyboard focus to a step (the card focuses itself once it is rendered). */
  focus(store: Store, step: number): void {
    store.focusSeq += 1;
    store.setState({ focusedStep: step, focusRequest: { step, seq: store.focusSeq } });
  },
  /** Records where focus went by other means (a click, Tab). */
  focused(store: Store, step: number): void {
    if (store.getState().focusedStep !== step) store.setState({ focusedStep: step });
  },
  /** The card took the focus it was asked to: a card that scrolls back in must not take it again. */
  focusTaken(store: Store, seq: number): void {
    if (store.getState().focusRequest?.seq === seq) store.setState({ focusRequest: null });
  },
  openDialog(store: Store, step: number): void {
    store.setState({ dialogStep: step });
  },
  closeDialog(store: Store): void {
    store.setState({ dialogStep: null });
  },
};

export type TraceUiStore = Store & { actions: Bound<typeof traceUiActions> };

/** The trace's own store (one per set of stores: the Trace panel makes it when first shown). */
export function createTraceUiStore(): TraceUiStore {
  return makeStore(plainStore(initialState), { focusSeq: 0 }, traceUiActions);
}

/** `#step-3` → 3; anything else → null. */
export function parseStepHash(hash: string): number | null {
  const match = /^#step-(\d{1,6})$/.exec(hash);
  if (!match) return null;
  const step = Number(match[1]);
  return step > 0 ? step : null;
}

export function stepAnchor(step: number): string {
  return `step-${step}`;
}

/**
 * The step j (+1) or k (-1) moves to from `current`, among `steps` in order. From nowhere, j goes
 * to the first step and k to the last; at either end focus stays where it is.
 */
export function neighbourStep(steps: readonly number[], current: number | null, direction: 1 | -1): number | null {
  if (steps.length === 0) return null;
  const index = current === null ? -1 : steps.indexOf(current);
  if (index === -1) return (direction === 1 ? steps[0] : steps[steps.length - 1]) ?? null;
  const next = Math.min(steps.length - 1, Math.max(0, index + direction));
  return steps[next] ?? null;
}
