import { WebGpuStatus } from './WebGpuStatus.tsx';

const cliExample = 'npm run orchestra -- run --config <file> --task "..."';

export function App() {
  return (
    <main>
      <h1>Orchestra Playground</h1>
      <p>
        Orchestration lets a small orchestrator model solve a task step by step, choosing at each
        step whether to call a search, a code interpreter or a stronger, pricier model. Its choices
        are steered by your preferences for cost, latency and particular tools.
      </p>
      <p>
        The browser playground is coming next. Today you can run a task from the command line:
      </p>
      <pre>
        <code>{cliExample}</code>
      </pre>
      <WebGpuStatus />
    </main>
  );
}
