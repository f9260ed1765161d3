import type { BackendModels } from '../../engine/backendKind.ts';
import { httpOptions } from '../http/requestOptions.ts';
import { createAnthropicModel } from './anthropic.ts';

export const anthropicModels: BackendModels = {
  create: (request) => ({ model: createAnthropicModel({ ...httpOptions(request), baseUrl: request.provider.baseUrl }) }),
};
