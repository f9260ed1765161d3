// "Try the demo", loaded on the first click so the first screen does not carry it: the scripted
// demo's config and which sample task it runs.

import demoConfig from '../../cli/examples/demo.json' with { type: 'json' };
import { readQuestion } from '../../workers/backends/demo/reading.ts';
import type { SampleTask } from '../../tools/search/sampleTasks.ts';
import type { ConfigDraft } from './setupStore.ts';

export const DEMO_CONFIG = demoConfig as ConfigDraft;

/** The sample question in the task box, or the next sample task, taking each question form in turn.
 * `nextPick` counts the picks (the session's count, from 1): each click without a sample in the
 * task box takes the next. */
export async function demoTask(taskBox: string, nextPick: () => number, signal?: AbortSignal): Promise<string> {
  if (readQuestion(taskBox)) return taskBox.trim();
  const response = await fetch(`${import.meta.env.BASE_URL}generated/sample-tasks.json`, { signal });
  if (!response.ok) throw new Error(`The sample tasks could not be loaded (HTTP ${response.status}).`);
  const tasks = ((await response.json()) as SampleTask[]).filter((task) => typeof task?.question === 'string' && readQuestion(task.question));
  if (tasks.length === 0) throw new Error('The sample tasks could not be read.');
  const byForm = new Map<string, SampleTask[]>();
  for (const task of tasks) {
    const form = String(task.id).replace(/-[^-]+$/, '');
    byForm.set(form, [...(byForm.get(form) ?? []), task]);
  }
  const forms = [...byForm.values()];
  // The first pick is the second form (a neighbour's capital): more hops to watch than the first.
  const index = nextPick();
  const form = forms[index % forms.length]!;
  return form[Math.floor(index / forms.length) % form.length]!.question;
}
