import { useEffect, useState } from 'react';
import type { SampleTask } from '../../../tools/search/sampleTasks.ts';

export type SampleTasksState = { status: 'loading' } | { status: 'ready'; tasks: SampleTask[] } | { status: 'failed'; message: string };

/** The local corpus's checkable multi-hop questions, generated at build time. */
export function useSampleTasks(): SampleTasksState {
  const [state, setState] = useState<SampleTasksState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    fetch(`${import.meta.env.BASE_URL}generated/sample-tasks.json`, { signal: controller.signal })
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.json() as Promise<SampleTask[]>;
      })
      .then((tasks) => setState({ status: 'ready', tasks }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failed', message: (error as Error).message });
      });
    return () => controller.abort();
  }, []);
  return state;
}
