// Types for what tests import from eslint.config.js (the config itself is plain JavaScript).
import type { Linter } from 'eslint';

/** The engine modules app/ may import (the rule's list; docs/architecture.md, "Boundaries"). */
export declare const ENGINE_ENTRY_POINTS: readonly string[];
declare const config: Linter.Config[];
export default config;
/** The rule that refuses module-level mutable state in app/ (a `let`/`var`, a Map or Set, a zustand store). */
export declare const noModuleState: import('eslint').Rule.RuleModule;
