import { Component, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  /** What failed, in words: "The trace", "Step 4". */
  what: string;
  children: ReactNode;
  /** Shown instead of the default message (e.g. a chart's "the table has the same figures"). */
  fallback?: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
}

/**
 * Keeps a rendering failure in one part of the screen (odd data from a model or a tool, a chunk
 * that did not load) from blanking the whole page: the part says what failed, the rest goes on.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      this.props.fallback ?? (
        <div role="alert" className="panel error-boundary">
          <strong>{this.props.what} could not be shown.</strong> <span className="muted">{error.message}</span>{' '}
          <button type="button" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
        </div>
      )
    );
  }
}
