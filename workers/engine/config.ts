// The one configuration format, read by the CLI and imported in the playground (Setup).
// Keys never live here: a provider names the environment variable (CLI) that holds its key;
// the browser keeps keys in memory, keyed by provider name. The parts that need no schema library
// (names, limits, the bounds check) live in configBasics.ts, so the page's first screen can use
// them without loading zod; they are re-exported here for everyone else.
//
// The names the registries define (backend kinds and what each takes, built-in tools) come in as
// a vocabulary: createConfigSchema builds the schema from it, and workers/hosts/config.ts builds
// the playground's and the CLI's from the registries (workers/backends/registry.ts,
// tools/registry.ts), so adding a kind or a tool changes no line here.

import { z } from './zod.ts';
import {
  CALL_EXPERT_TOOL,
  ConfigError,
  configBoundsProblems,
  PAPER_TOOLS,
  SEARCH_SOURCES,
  WIKIPEDIA_API_URL,
} from './configBasics.ts';
import { preferenceSchema } from './preferenceSchema.ts';
import { PAPER_EXPERTS_PRESET } from './presets.ts';
import { ANSWER_STYLES } from './protocols/expertFamilies.ts';
import { checkToolParameters, TOOL_NAME_PATTERN, TOOL_NAME_RULE } from './toolSchema.ts';

export {
  CALL_EXPERT_TOOL,
  CONFIG_LIMITS,
  ConfigError,
  configBoundsProblems,
  PAPER_TOOLS,
  readConfigJson,
  SEARCH_SOURCES,
  WIKIPEDIA_API_URL,
  type PaperToolName,
  type SearchSourceName,
} from './configBasics.ts';


/** A user's own MLC conversion of an 8B Qwen3 fine-tune (Orchestrator-8B), for a `webllm` provider:
 * see docs/orchestrator-8b-in-the-browser.md. The model id is the key it is listed under. */
const customLocalModelSchema = z.strictObject({
  weightsUrl: z.url({ protocol: /^https?$/, message: 'must be a full http(s) URL of the converted weights' }),
  quantization: z.enum(['q4f16_1', 'q4f32_1']).default('q4f16_1'),
  /** Default: web-llm's prebuilt Qwen3-8B library of the same quantization. */
  modelLibUrl: z.url({ protocol: /^https?$/, message: 'must be a full http(s) URL of a .wasm model library' }).optional(),
});

/** What a backend kind says about its provider entries (its descriptor's `config`,
 * workers/backends/<kind>/): the fields it does not use and what to say when one is given, the
 * fields it needs, and why its orchestrator cannot take toolMode "server" when it cannot. */
export interface ProviderKindRules {
  kind: string;
  unusedFields?: Partial<Record<ProviderField, string>>;
  requiredFields?: Partial<Record<ProviderField, string>>;
  /** Set when an orchestrator of this kind needs toolMode "prompt": the problem, in words. */
  needsPromptToolMode?: string;
}

/** The names a config may use that the registries define. */
export interface ConfigVocabulary {
  /** Every backend kind, in the order the schema lists them. */
  providerKinds: readonly ProviderKindRules[];
  /** The built-in tools the function-calling protocol can offer (tools/registry.ts). */
  tools: readonly string[];
}

const providerFields = (kinds: readonly string[]) => ({
  /** Which backend serves this provider's models (workers/backends/<kind>/). */
  kind: z.enum(kinds as [string, ...string[]]),
  // http(s) only: without it "localhost:8000/v1" would pass, read as a URL whose scheme is "localhost".
  baseUrl: z
    .url({ protocol: /^https?$/, message: 'must be a full http(s) URL such as http://localhost:8000/v1' })
    // A key written into the URL would be saved and exported with the config.
    .refine((url) => !/^[a-z]+:\/\/[^/]*@/i.test(url), 'must not contain a user name or password: give the key in Setup (or its environment variable)')
    .optional(),
  /** Name of the environment variable holding the key (the CLI reads it; it is never printed). */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name such as OPENAI_API_KEY')
    .optional(),
  /** OpenAI's newer models want `max_completion_tokens`; most servers take `max_tokens`. */
  maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).default('max_tokens'),
  timeoutSeconds: z.number().positive().default(120),
  idleTimeoutSeconds: z.number().positive().default(60),
  maxRetries: z.number().int().min(0).max(10).default(3),
  /** webllm, gguf: the context window (tokens) a run needs its local models loaded with, at least. */
  contextWindow: z.number().int().min(512).max(40960).optional(),
  /** webllm: constrain `<tool_call>` blocks to the offered tools and their schemas (xgrammar).
   * gguf: constrain the whole reply to one call of an offered tool (a llama.cpp grammar). */
  constrainToolCalls: z.boolean().optional(),
  /** webllm: custom models by id (your converted Orchestrator-8B weights). */
  models: z.record(z.string().min(1), customLocalModelSchema).optional(),
});

/** The fields of a provider entry a kind may leave unused or require. */
export type ProviderField = 'baseUrl' | 'apiKeyEnv' | 'contextWindow' | 'constrainToolCalls' | 'models';

const modelPriceSchema = z.strictObject({
  inputPerM: z.number().nonnegative(),
  outputPerM: z.number().nonnegative(),
  cachedInputPerM: z.number().nonnegative().optional(),
  cacheWritePerM: z.number().nonnegative().optional(),
});

const pricingSchema = z.strictObject({
  asOf: z.iso.date({ message: 'must be the date the prices were true on, as YYYY-MM-DD' }),
  source: z.string().optional(),
  /** Prices per million tokens by provider model id; merged over the reference table. */
  models: z.record(z.string(), modelPriceSchema).default({}),
  codePerSecond: z.number().nonnegative().optional(),
  searchPerCall: z.number().nonnegative().optional(),
});

const orchestratorSchema = z.strictObject({
  provider: z.string().min(1),
  model: z.string().min(1),
  /** `server`: send `tools` and let the server render and parse them (vLLM `--tool-call-parser hermes`).
   * `prompt`: render the tools into the system prompt ourselves and parse `<tool_call>` text. */
  toolMode: z.enum(['server', 'prompt']).default('server'),
  temperature: z.number().min(0).max(2).default(1),
  /** Default by protocol, as the reference: 12,000 (eval_hle.py), 8,000 (tau2's generate). */
  maxTokens: z.number().int().positive().optional(),
  enableThinking: z.boolean().optional(),
});

/** The orchestrator's reply length the reference gives it in each protocol. */
export const ORCHESTRATOR_MAX_TOKENS = { paper: 12000, 'function-calling': 8000 } as const;

const expertSchema = z.strictObject({
  tool: z.enum([...PAPER_TOOLS, CALL_EXPERT_TOOL]),
  provider: z.string().min(1),
  model: z.string().min(1),
  /** One sentence on what this alias is good at; shown to the orchestrator. */
  description: z.string().default(''),
  /** The average latency shown in the orchestrator's price table. */
  latencySeconds: z.number().nonnegative().optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  /** How an answer expert is asked for its answer: `boxed` (Qwen), `tagged` (Llama wording),
   * `think-hard` (GPT-5 wording). Default by model family, as the reference does. */
  answerStyle: z.enum(ANSWER_STYLES).optional(),
  /** Paper protocol: what this expert is shown of the gathered material. Defaults follow the
   * reference by model family and variant (protocols/expertFamilies.ts). */
  documentChars: z.number().int().positive().nullable().optional(),
  codeContextTokens: z.number().int().positive().optional(),
  contextTokens: z.number().int().positive().optional(),
});

const paperSchema = z.strictObject({
  /** Whose layout the prompts follow: the HLE evaluation's or the FRAMES evaluation's (which also
   * stops offering `search` once documents exist). */
  variant: z.enum(['hle', 'frames']).default('hle'),
  searchTopK: z.number().int().positive().max(100).default(5),
  codeTimeoutSeconds: z.number().positive().default(60),
  /** Token budget of the orchestrator's rebuilt context (estimated tokens); by variant when unset. */
  contextTokens: z.number().int().positive().optional(),
  codeContextTokens: z.number().int().positive().default(12000),
  /** Each document is cut to this many characters in the orchestrator's context; by variant when unset. */
  documentChars: z.number().int().positive().optional(),
});

/** The orchestrator's budgets each evaluation used: HLE 27,000 tokens less the problem's, documents
 * cut to 1,200 characters; FRAMES 24,000 tokens, documents cut to 4,000. */
export const VARIANT_DEFAULTS = {
  hle: { contextTokens: 27000, documentChars: 1200 },
  frames: { contextTokens: 24000, documentChars: 4000 },
} as const;

const functionCallingSchema = (tools: readonly string[]) =>
  z.strictObject({
    /** The domain policy: the system prompt of the conversation. */
    system: z.string().default('You are a helpful assistant. Use the tools when they help.'),
    /** Built-in client tools offered to the orchestrator. */
    tools: z.array(z.enum(tools as [string, ...string[]])).default(['search_corpus', 'run_python']),
  });


/** A tool the user wrote: a JSON schema and JavaScript run in the QuickJS sandbox, which reads its
 * arguments as `args` and returns a JSON value. The function-calling protocol offers enabled ones. */
export const customToolSchema = z.strictObject({
  name: z.string().regex(TOOL_NAME_PATTERN, TOOL_NAME_RULE),
  description: z.string().trim().min(1, 'must say what the tool does: the orchestrator reads it to decide when to call the tool'),
  parameters: z.record(z.string(), z.unknown()).superRefine((parameters, ctx) => {
    for (const problem of checkToolParameters(parameters)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  }),
  code: z
    .string()
    .max(100_000, 'must be at most 100,000 characters')
    .refine((code) => code.trim() !== '', 'must be the JavaScript that implements the tool'),
  enabled: z.boolean().default(true),
});

export type CustomToolConfig = z.output<typeof customToolSchema>;


const searchSchema = z.strictObject({
  /** Where the paper's `search` and function calling's `search_corpus` look: the local corpus, the
   * documents added in the playground, Wikipedia (online). Several are merged by rank. */
  sources: z
    .array(z.enum(SEARCH_SOURCES))
    .min(1, 'must name at least one source')
    .refine((sources) => new Set(sources).size === sources.length, 'must name each source once')
    .default(['local']),
  /** The MediaWiki Action API endpoint of the Wikipedia to search. */
  wikipediaBaseUrl: z
    .url({ protocol: /^https?$/, message: 'must be a full http(s) URL of a MediaWiki api.php, such as https://en.wikipedia.org/w/api.php' })
    .default(WIKIPEDIA_API_URL),
  wikipediaTimeoutSeconds: z.number().positive().max(300).default(15),
  /** The reference's dense retriever (`retrieval` source): its base URL; requests go to `{base}/retrieve`. */
  retrievalBaseUrl: z.url({ protocol: /^https?$/, message: 'must be a full http(s) URL of a retrieval server, such as http://localhost:8000' }).optional(),
  /** Documents a `retrieval` search asks for; the reference's (150 for FRAMES, 50 for HLE, by `paper.variant`) when unset. */
  retrievalTopK: z.number().int().positive().max(1000).optional(),
  retrievalTimeoutSeconds: z.number().positive().max(600).default(60),
  /** At most this many results from each source before merging; the search's own size otherwise. */
  perSourceLimit: z.number().int().positive().max(100).optional(),
});

const evaluationSchema = z.strictObject({
  /** The model that grades answers of "judge" checks, with the paper's HLE judge prompt. */
  judge: z.strictObject({ provider: z.string().min(1), model: z.string().min(1) }).optional(),
});

/** The most turns a config may allow a run. */
export const MAX_TURNS = 500;

const limitsSchema = z.strictObject({
  maxTurns: z.number().int().positive().max(MAX_TURNS).default(50),
  maxCostUsd: z.number().positive().nullable().default(null),
  maxWallSeconds: z.number().positive().nullable().default(null),
  /** Consecutive turns without a valid call before the run stops with `invalid_output`. */
  maxInvalidTurns: z.number().int().positive().default(3),
});

/** The config's fields, each checked alone, with the registries' names. */
function configFields(vocabulary: ConfigVocabulary) {
  const providerSchema = z.strictObject(providerFields(vocabulary.providerKinds.map((kind) => kind.kind)));
  const functionCalling = functionCallingSchema(vocabulary.tools);
  return z.strictObject({
    $schema: z.string().optional(),
    name: z.string().optional(),
    protocol: z.enum(['paper', 'function-calling']).default('paper'),
    providers: z.record(z.string(), providerSchema),
    orchestrator: orchestratorSchema,
    /** Experts per alias, or the name of a preset (`paper`: the paper's evaluation mapping, which
     * needs providers named `openai` and `open-models`). */
    experts: z.union([z.literal('paper'), z.record(z.string(), expertSchema)]),
    pricing: pricingSchema.optional(),
    paper: paperSchema.default(paperSchema.parse({})),
    functionCalling: functionCalling.default(functionCalling.parse({})),
    search: searchSchema.default(searchSchema.parse({})),
    preference: z
      .union([z.enum(['cheapest', 'balanced', 'best-answer', 'fastest']), preferenceSchema])
      .default('balanced'),
    /** Add the plain-words preference instruction to the task (our wording, not the paper's). */
    preferenceInstruction: z.boolean().default(true),
    limits: limitsSchema.default(limitsSchema.parse({})),
    customTools: z.array(customToolSchema).default([]),
    /** Evaluation settings (orchestra eval; docs/evaluation.md). */
    evaluation: evaluationSchema.optional(),
  });
}

type ConfigFields = z.output<ReturnType<typeof configFields>>;
type KindRules = ReadonlyMap<string, ProviderKindRules>;

/** Each provider's fields as its kind wants them: those it needs present, those it ignores absent. */
function checkProviderFields(config: ConfigFields, ctx: z.RefinementCtx, rules: KindRules): void {
  for (const [name, provider] of Object.entries(config.providers)) {
    const kind = rules.get(provider.kind);
    for (const [field, message] of Object.entries(kind?.requiredFields ?? {})) {
      if (provider[field as ProviderField] === undefined) ctx.addIssue({ code: 'custom', path: ['providers', name, field], message });
    }
    for (const [field, message] of Object.entries(kind?.unusedFields ?? {})) {
      if (provider[field as ProviderField] === undefined) continue;
      ctx.addIssue({ code: 'custom', path: ['providers', name, field], message });
    }
  }
}

/** Every provider the orchestrator, the judge and the experts name is in `providers`. */
function checkProvidersNamed(config: ConfigFields, ctx: z.RefinementCtx): void {
  const experts = config.experts === 'paper' ? PAPER_EXPERTS_PRESET : config.experts;
  const check = (provider: string, path: (string | number)[]) => {
    if (!Object.hasOwn(config.providers, provider)) {
      ctx.addIssue({
        code: 'custom',
        path,
        message: `names provider "${provider}", which is not in "providers" (known: ${Object.keys(config.providers).join(', ') || 'none'})`,
      });
    }
  };
  check(config.orchestrator.provider, ['orchestrator', 'provider']);
  if (config.evaluation?.judge) check(config.evaluation.judge.provider, ['evaluation', 'judge', 'provider']);
  if (config.experts === 'paper') {
    const missing = [...new Set(Object.values(PAPER_EXPERTS_PRESET).map((e) => e.provider))].filter(
      (name) => !Object.hasOwn(config.providers, name),
    );
    if (missing.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['experts'],
        message: `the "paper" preset needs providers named ${missing.map((name) => `"${name}"`).join(' and ')} (GPT-5 models from "openai", open models from "open-models")`,
      });
    }
  } else {
    for (const [alias, expert] of Object.entries(experts)) check(expert.provider, ['experts', alias, 'provider']);
  }
}

/** Custom tools take neither a built-in tool's name nor each other's. */
function checkCustomToolNames(config: ConfigFields, ctx: z.RefinementCtx, builtInTools: readonly string[]): void {
  const customNames = new Set<string>();
  config.customTools.forEach((tool, index) => {
    const path = ['customTools', index, 'name'];
    if (builtInTools.includes(tool.name)) {
      ctx.addIssue({ code: 'custom', path, message: `"${tool.name}" is a built-in tool's name; choose another` });
    } else if (customNames.has(tool.name)) {
      ctx.addIssue({ code: 'custom', path, message: `"${tool.name}" names two custom tools; each needs its own name` });
    }
    customNames.add(tool.name);
  });
}

/** The config's schema with the registries' names (workers/hosts/config.ts builds the one in use). */
export function createConfigSchema(vocabulary: ConfigVocabulary) {
  const rules: KindRules = new Map(vocabulary.providerKinds.map((kind) => [kind.kind, kind]));
  const builtInTools = [...vocabulary.tools, CALL_EXPERT_TOOL];
  return configFields(vocabulary).superRefine((config, ctx) => {
    checkProviderFields(config, ctx, rules);
    checkProvidersNamed(config, ctx);
    checkCustomToolNames(config, ctx, builtInTools);
    if (config.search.sources.includes('retrieval') && config.search.retrievalBaseUrl === undefined) {
      ctx.addIssue({ code: 'custom', path: ['search', 'retrievalBaseUrl'], message: 'the "retrieval" source needs the retrieval server\'s base URL (its /retrieve is called)' });
    }
    if (config.protocol === 'paper') {
      const experts = config.experts === 'paper' ? PAPER_EXPERTS_PRESET : config.experts;
      const used = new Set<string>(Object.values(experts).map((e) => e.tool));
      for (const tool of PAPER_TOOLS) {
        if (!used.has(tool)) {
          ctx.addIssue({ code: 'custom', path: ['experts'], message: `the paper protocol needs at least one expert for "${tool}"` });
        }
      }
    }
    if (config.orchestrator.toolMode === 'server') {
      const provider = config.providers[config.orchestrator.provider];
      const needsPrompt = provider && rules.get(provider.kind)?.needsPromptToolMode;
      if (needsPrompt) ctx.addIssue({ code: 'custom', path: ['orchestrator', 'toolMode'], message: needsPrompt });
    }
  });
}

export type ConfigSchema = ReturnType<typeof createConfigSchema>;
export type OrchestraConfig = z.output<ConfigSchema>;
export type ProviderConfig = OrchestraConfig['providers'][string];
export type ExpertConfig = z.output<typeof expertSchema>;




/** Validates a parsed JSON value against `schema`. Every problem names the field and says what is
 * wrong. (workers/hosts/config.ts's parseConfig uses the registries' schema.) */
export function parseConfigWith(schema: ConfigSchema, value: unknown): OrchestraConfig {
  const bounds = configBoundsProblems(value);
  if (bounds.length > 0) throw new ConfigError(bounds);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const path = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
      return `${path}: ${issue.message}`;
    }),
  );
}
