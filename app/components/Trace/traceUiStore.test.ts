import { beforeEach, describe, expect, it } from 'vitest';
import { createTraceUiStore, detailKey, isDetailOpen, isExpanded, neighbourStep, parseStepHash, type TraceUiStore } from './traceUiStore.ts';

describe('trace UI state', () => {
  // Each test has a fresh store of its own.
  let useTraceUi: TraceUiStore;
  let traceUiActions: TraceUiStore['actions'];
  beforeEach(() => {
    useTraceUi = createTraceUiStore();
    traceUiActions = useTraceUi.actions;
    traceUiActions.showRun('run-a');
  });

  it('opens and closes steps one by one over the expand/collapse-all default', () => {
    expect(isExpanded(useTraceUi.getState(), 2)).toBe(true);
    traceUiActions.toggle(2);
    expect(isExpanded(useTraceUi.getState(), 2)).toBe(false);
    traceUiActions.collapseAll();
    expect(isExpanded(useTraceUi.getState(), 1)).toBe(false);
    traceUiActions.setExpanded(3, true);
    expect(isExpanded(useTraceUi.getState(), 3)).toBe(true);
    traceUiActions.expandAll();
    expect(useTraceUi.getState().overrides).toEqual({});
    expect(isExpanded(useTraceUi.getState(), 2)).toBe(true);
  });

  it('lays a run out closed for presenter view, and open again without it', () => {
    traceUiActions.showRun('run-a', false);
    expect(isExpanded(useTraceUi.getState(), 1)).toBe(false);
    traceUiActions.setExpanded(2, true);
    // The same run in the same view keeps what the person opened.
    traceUiActions.showRun('run-a', false);
    expect(isExpanded(useTraceUi.getState(), 2)).toBe(true);
    traceUiActions.showRun('run-a', true);
    expect(isExpanded(useTraceUi.getState(), 1)).toBe(true);
  });

  it('opens and closes the blocks inside steps with "Expand all" and "Collapse all", over their own defaults', () => {
    traceUiActions.showRun('run-with-details');
    const reasoning = detailKey('step-1', 'reasoning');
    const reply = detailKey('call-1-2', 'reply');
    const state = () => useTraceUi.getState();
    // Until then each block follows its own default (open while it streams).
    expect(isDetailOpen(state(), reasoning, false)).toBe(false);
    expect(isDetailOpen(state(), reply, true)).toBe(true);
    traceUiActions.expandAll();
    expect(isDetailOpen(state(), reasoning, false)).toBe(true);
    expect(isDetailOpen(state(), reply, false)).toBe(true);
    traceUiActions.setDetailOpen(reply, false);
    expect(isDetailOpen(state(), reply, false)).toBe(false);
    traceUiActions.collapseAll();
    expect(isDetailOpen(state(), reasoning, true)).toBe(false);
    expect(isDetailOpen(state(), reply, true)).toBe(false);
    traceUiActions.expandAll();
    expect(isDetailOpen(state(), reply, false)).toBe(true);
    traceUiActions.showRun('run-b');
    expect(isDetailOpen(state(), reasoning, false)).toBe(false);
  });

  it('numbers focus requests so each is taken once', () => {
    traceUiActions.focus(4);
    const first = useTraceUi.getState().focusRequest;
    traceUiActions.focus(4);
    const second = useTraceUi.getState().focusRequest;
    expect(second?.seq).toBeGreaterThan(first?.seq ?? Infinity);
    traceUiActions.focusTaken(first?.seq ?? 0);
    expect(useTraceUi.getState().focusRequest).toEqual(second);
    traceUiActions.focusTaken(second?.seq ?? 0);
    expect(useTraceUi.getState().focusRequest).toBeNull();
    expect(useTraceUi.getState().focusedStep).toBe(4);
  });

  it('forgets everything when another run is shown, and nothing when the same one is', () => {
    traceUiActions.collapseAll();
    traceUiActions.openDialog(2);
    traceUiActions.showRun('run-a');
    expect(useTraceUi.getState().dialogStep).toBe(2);
    traceUiActions.showRun('run-b');
    expect(useTraceUi.getState()).toMatchObject({ runId: 'run-b', expandedByDefault: true, dialogStep: null, focusedStep: null });
  });
});

describe('parseStepHash', () => {
  it('reads #step-N and nothing else', () => {
    expect(parseStepHash('#step-3')).toBe(3);
    expect(parseStepHash('#step-120')).toBe(120);
    for (const hash of ['', '#step-0', '#step-', '#step-3x', '#steps-3', 'step-3', '#step--1']) expect(parseStepHash(hash)).toBeNull();
  });
});

describe('neighbourStep', () => {
  const steps = [1, 2, 3];
  it('moves down with j and up with k, staying put at either end', () => {
    expect(neighbourStep(steps, 1, 1)).toBe(2);
    expect(neighbourStep(steps, 3, 1)).toBe(3);
    expect(neighbourStep(steps, 2, -1)).toBe(1);
    expect(neighbourStep(steps, 1, -1)).toBe(1);
  });

  it('starts at the first (j) or last (k) step when nothing has focus', () => {
    expect(neighbourStep(steps, null, 1)).toBe(1);
    expect(neighbourStep(steps, null, -1)).toBe(3);
    expect(neighbourStep(steps, 9, 1)).toBe(1);
    expect(neighbourStep([], null, 1)).toBeNull();
  });
});
