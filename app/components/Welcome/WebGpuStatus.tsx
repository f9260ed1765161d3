import { useEffect, useState } from 'react';
import { describeWebGpu, probeWebGpu, type WebGpuProbe } from '../../probeWebGpu.ts';

/** What WebGPU this browser really offers, as plain sentences. */
export function WebGpuStatus() {
  const [probe, setProbe] = useState<WebGpuProbe | null>(null);

  useEffect(() => {
    let current = true;
    void probeWebGpu(navigator.gpu).then((result) => {
      if (current) setProbe(result);
    });
    return () => {
      current = false;
    };
  }, []);

  return (
    <div role="status" aria-label="WebGPU" aria-live="polite" className="webgpu-status">
      {probe === null ? <p>Checking WebGPU…</p> : describeWebGpu(probe).map((line) => <p key={line}>{line}</p>)}
    </div>
  );
}
