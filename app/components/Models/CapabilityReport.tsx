import { QWEN3_MODELS } from '../../../workers/backends/webllm/catalogue.ts';
import { describeLocalModels } from './figures.ts';
import { useCapability } from './useCapability.ts';
import './CapabilityReport.css';

/**
 * What this browser can do with local models, read from the real adapter. On the first screen it
 * is the live status named "WebGPU" and says what to do next; in the Models panel it heads the
 * catalogue, and says what else to do only when nothing can run here.
 */
export function CapabilityReport({ place }: { place: 'welcome' | 'panel' }) {
  const capability = useCapability();
  const advice = capability && (place === 'welcome' || !capability.report.usable) ? describeLocalModels(capability.report, QWEN3_MODELS) : [];
  // The advice restates the report's own one-line verdict at more length: keep only one of them.
  const reportLines = capability?.report.lines.filter((line) => advice.length === 0 || !line.startsWith('Local models cannot run')) ?? [];
  const lines = capability ? [...reportLines, ...advice] : ['Checking WebGPU…'];
  const body = lines.map((line) => <p key={line}>{line}</p>);
  return place === 'welcome' ? (
    <div role="status" aria-label="WebGPU" aria-live="polite" className="capability-report">
      {body}
    </div>
  ) : (
    <div className="capability-report">{body}</div>
  );
}
