import type { BackendModels } from '../../engine/backendKind.ts';
import { httpOptions } from '../http/requestOptions.ts';
import { createOpenAICompatibleModel } from './openaiCompatible.ts';

export const openAICompatibleModels: BackendModels = {
  create(request) {
    const { provider, providerName } = request;
    if (!provider.baseUrl) throw new Error(`Provider "${providerName}" needs a baseUrl`);
    return {
      model: createOpenAICompatibleModel({ ...httpOptions(request), baseUrl: provider.baseUrl, provider: providerName, maxTokensField: provider.maxTokensField }),
    };
  },
};
