// `orchestra validate`: checks a configuration and prints what it resolves to.

import { protocolExperts } from '../workers/engine/configExperts.ts';
import { formatPerMillion, formatSeconds, formatUsd } from '../workers/engine/format.ts';
import { lookupPrice } from '../workers/engine/pricing.ts';
import { effectivePricing, resolvePreference } from '../workers/hosts/prepareRun.ts';
import { colorWanted, createStyle, terminalValue } from './format.ts';
import type { CliIo } from './io.ts';
import { loadConfig } from './loadConfig.ts';
import { providersInUse } from './nodeEnvironment.ts';
import { EXIT_CODES, parseCommandArgs, printUsage, UsageError, VALIDATE_USAGE } from './usage.ts';

export async function validateCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommandArgs(argv, { config: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const, VALIDATE_USAGE);
  if (args.help) return printUsage(io, VALIDATE_USAGE);
  if (!args.config) throw new UsageError('--config <file> is required.', VALIDATE_USAGE);
  // A config is often someone else's: its names and addresses are printed as text.
  const config = terminalValue(await loadConfig(args.config));
  const style = createStyle(colorWanted(io.stdout, io.env));
  const pricing = effectivePricing(config);
  const priceText = (model: string) => {
    const price = lookupPrice(pricing, model);
    return price ? `${formatPerMillion(price.inputPerM)} in / ${formatPerMillion(price.outputPerM)} out per M` : 'price unknown';
  };

  const lines: string[] = [style.green(`${args.config} is valid.`)];
  const row = (label: string, value: string) => lines.push(`${label.padEnd(13)}${value}`);
  row('Protocol', config.protocol === 'paper' ? `paper (variant ${config.paper.variant})` : `function-calling (tools: ${config.functionCalling.tools.join(', ') || 'none'})`);
  const orchestratorProvider = config.providers[config.orchestrator.provider];
  row(
    'Orchestrator',
    `${config.orchestrator.model} via "${config.orchestrator.provider}"` +
      (orchestratorProvider?.baseUrl ? ` (${orchestratorProvider.baseUrl})` : '') +
      ` · toolMode ${config.orchestrator.toolMode} · ${priceText(config.orchestrator.model)}`,
  );

  const experts = protocolExperts(config);
  lines.push(`Experts${config.experts === 'paper' ? ' (the "paper" preset)' : ''}:`);
  const table = experts.map(([alias, expert]) => {
    const price = lookupPrice(pricing, expert.model);
    return [
      alias,
      expert.tool,
      expert.model,
      expert.provider,
      formatPerMillion(price?.inputPerM),
      formatPerMillion(price?.outputPerM),
      expert.latencySeconds === undefined ? 'unknown' : `${expert.latencySeconds}s`,
    ];
  });
  const header = ['alias', 'tool', 'model', 'provider', '$/M in', '$/M out', 'latency'];
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((cells) => (cells[column] ?? '').length)));
  const render = (cells: string[]) => `  ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()}`;
  lines.push(style.dim(render(header)), ...table.map(render));
  if (experts.length === 0) lines.push('  (none)');

  row(
    'Pricing',
    `as of ${pricing.asOf}${pricing.source ? ` (${pricing.source})` : ''} · code $${pricing.codePerSecond}/s · ` +
      `web search $${pricing.searchPerCall}/call (the CLI searches its local corpus, at no cost)`,
  );
  const preference = resolvePreference(config);
  const tools = Object.entries(preference.tools).map(([key, weight]) => `${key} ${weight}`);
  row(
    'Preference',
    `${typeof config.preference === 'string' ? `${config.preference}: ` : ''}outcome ${preference.outcome}, cost ${preference.cost}, latency ${preference.latency}` +
      (tools.length > 0 ? `, tools ${tools.join(', ')}` : '') +
      (config.preferenceInstruction ? '' : ' (not told to the orchestrator)'),
  );
  row(
    'Limits',
    [
      `${config.limits.maxTurns} turns`,
      config.limits.maxCostUsd === null ? 'no cost limit' : `${formatUsd(config.limits.maxCostUsd)} max`,
      config.limits.maxWallSeconds === null ? 'no time limit' : `${formatSeconds(config.limits.maxWallSeconds * 1000)} max`,
    ].join(', '),
  );
  const keys = providersInUse(config).map((name) => {
    const variable = config.providers[name]?.apiKeyEnv;
    if (!variable) return `${name}: no key`;
    return `${name}: ${variable} ${io.env[variable] ? style.green('(set)') : style.yellow('(not set)')}`;
  });
  row('Keys', keys.join(' · '));
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT_CODES.ok;
}
