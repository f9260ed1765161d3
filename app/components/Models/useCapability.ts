import { useEffect } from 'react';
import { type ModelsState } from '../../state/modelsStore.ts';
import { useLocalModels, useModelsStore } from '../../state/context.tsx';

/** What this browser's WebGPU can do: probed once per page, null until the answer is in. */
export function useCapability(): ModelsState['capability'] {
  const localModels = useLocalModels();
  useEffect(() => localModels.checkBrowserCapabilities(), [localModels]);
  return useModelsStore((state) => state.capability);
}
