import { useEffect } from 'react';
import { useModelsStore, type ModelsState } from '../../state/modelsStore.ts';
import { checkBrowserCapabilities } from '../../state/session.ts';

/** What this browser's WebGPU can do: probed once per page, null until the answer is in. */
export function useCapability(): ModelsState['capability'] {
  useEffect(() => checkBrowserCapabilities(), []);
  return useModelsStore((state) => state.capability);
}
