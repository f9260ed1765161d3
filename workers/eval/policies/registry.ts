// Every kind of evaluation policy, in the order their forms are listed. A new kind is a folder
// beside these and one line here (docs/evaluation.md, "Policies").

import type { PolicyKind } from '../policy.ts';
import { cheapestPolicy, strongestPolicy } from './alone/alone.ts';
import { orchestratorPolicy } from './orchestrator/orchestrator.ts';
import { qwen3Policy } from './qwen3/qwen3.ts';
import { randomPolicyKind } from './random/randomPolicy.ts';

export const POLICY_KINDS: readonly PolicyKind[] = [orchestratorPolicy, strongestPolicy, cheapestPolicy, randomPolicyKind, qwen3Policy];
