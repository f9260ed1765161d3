import { Component, type ReactNode } from 'react';

interface ChartBoundaryState {
  failed: boolean;
}

/** If the chart's chunk cannot load (offline, a deploy replaced it), says so instead of taking
 * the page down; the table beside it has the same figures. */
export class ChartBoundary extends Component<{ children: ReactNode }, ChartBoundaryState> {
  override state: ChartBoundaryState = { failed: false };

  static getDerivedStateFromError(): ChartBoundaryState {
    return { failed: true };
  }

  override render(): ReactNode {
    if (this.state.failed) return <p className="muted">The chart could not be loaded; the table below has the same figures.</p>;
    return this.props.children;
  }
}
