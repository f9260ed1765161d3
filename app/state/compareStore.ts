// The runs being compared side by side (two to four, from history), or null when none are.

import { create } from 'zustand';
import type { ComparedRun } from './compareModel.ts';

export const useCompareStore = create<{ compared: ComparedRun[] | null }>()(() => ({ compared: null }));

export const compareActions = {
  show(compared: ComparedRun[]): void {
    useCompareStore.setState({ compared });
  },
  close(): void {
    useCompareStore.setState({ compared: null });
  },
};
