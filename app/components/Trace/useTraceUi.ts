// The trace's store as its components read it: one per set of stores, made when the trace is
// first shown (usePart), so two apps (or two tests) never share which steps are open.

import { usePart, useSelected } from '../../state/context.tsx';
import { createTraceUiStore, type TraceUiState } from './traceUiStore.ts';

export function useTraceUi<T>(selector: (state: TraceUiState) => T): T {
  return useSelected(usePart(createTraceUiStore), selector);
}

export function useTraceUiStore() {
  return usePart(createTraceUiStore);
}
