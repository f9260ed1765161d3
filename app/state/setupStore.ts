// The configuration being edited: the same file the CLI reads (docs/configuration.md). The
// preference lives in the preferences store while editing and is merged back on export and run.
// Which providers have a key, and the origin each key is bound to, is mirrored from the worker;
// the keys themselves never enter here.

import type { z } from 'zod';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import paperVllmExample from '../../cli/examples/paper-vllm.json' with { type: 'json' };
import { ConfigError, parseConfig, type configSchema, type OrchestraConfig } from '../../workers/engine/config.ts';
import type { HeldKey } from '../../workers/keys.ts';

/** A config as written in the file (defaults not yet filled in). */
export type ConfigDraft = z.input<typeof configSchema>;

export interface SetupState {
  draft: ConfigDraft;
  /** Where the draft came from: the built-in example, an imported file's name, or edits. */
  source: { kind: 'example' } | { kind: 'imported'; fileName: string } | { kind: 'edited' };
  /** Providers whose key the worker holds right now, with the origin each key is bound to. */
  heldKeys: HeldKey[];
  /** Providers whose key is also kept in this browser's localStorage, by the user's choice. */
  rememberedProviders: string[];
}

export const EXAMPLE_CONFIG = withoutPreference(paperVllmExample as ConfigDraft);

export const useSetupStore = create<SetupState>()(
  persist(
    (): SetupState => ({ draft: EXAMPLE_CONFIG, source: { kind: 'example' }, heldKeys: [], rememberedProviders: [] }),
    {
      name: 'orchestra-playground:setup',
      version: 1,
      // Only the config (which holds no keys) and where it came from are kept on this device.
      partialize: (state) => ({ draft: state.draft, source: state.source, rememberedProviders: state.rememberedProviders }),
    },
  ),
);

export type DraftCheck = { ok: true; config: OrchestraConfig } | { ok: false; problems: string[] };

/** Validates a draft the way the worker and the CLI will. */
export function checkDraft(draft: ConfigDraft): DraftCheck {
  try {
    return { ok: true, config: parseConfig(draft) };
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, problems: error.problems };
    return { ok: false, problems: [(error as Error).message] };
  }
}

/** The draft without its preference fields, which the preferences store owns while editing. */
export function withoutPreference(draft: ConfigDraft): ConfigDraft {
  const { preference: _preference, preferenceInstruction: _instruction, ...rest } = draft;
  return rest;
}

export const setupActions = {
  setDraft(draft: ConfigDraft): void {
    useSetupStore.setState({ draft: withoutPreference(draft), source: { kind: 'edited' } });
  },
  imported(draft: ConfigDraft, fileName: string): void {
    useSetupStore.setState({ draft: withoutPreference(draft), source: { kind: 'imported', fileName } });
  },
  useExample(): void {
    useSetupStore.setState({ draft: EXAMPLE_CONFIG, source: { kind: 'example' } });
  },
  keysHeld(heldKeys: HeldKey[]): void {
    useSetupStore.setState({ heldKeys });
  },
  setRemembered(provider: string, remembered: boolean): void {
    useSetupStore.setState((state) => ({
      rememberedProviders: remembered
        ? [...new Set([...state.rememberedProviders, provider])]
        : state.rememberedProviders.filter((name) => name !== provider),
    }));
  },
};
