import { useEffect, useState } from 'react';
import { describeWebGpu, probeWebGpu, type WebGpuProbe } from './probeWebGpu.ts';

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
    <section aria-labelledby="webgpu-heading">
      <h2 id="webgpu-heading">WebGPU in this browser</h2>
      <div role="status" aria-live="polite" className="webgpu-status">
        {probe === null ? (
          <p>Checking WebGPU…</p>
        ) : (
          describeWebGpu(probe).map((line) => <p key={line}>{line}</p>)
        )}
      </div>
    </section>
  );
}
