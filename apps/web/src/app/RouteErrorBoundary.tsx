import { Component, type ReactNode } from 'react';
import { Button, Result } from 'antd';
import { Translation } from 'react-i18next';
import { ChunkLoadError } from './lazyPage';

interface State {
  error: Error | null;
}

/** Catches render errors of a route; a failed chunk shows the reload prompt (docs/product/errors.md#chunk-load-errors). */
export class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(prev: { resetKey?: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk =
      error instanceof ChunkLoadError || /dynamically imported module|Failed to fetch/i.test(error.message);
    return (
      <Translation ns="shell">
        {(t) => (
          <Result
            status={chunk ? 'warning' : 'error'}
            title={chunk ? t('chunk.title') : t('crash.title')}
            subTitle={chunk ? t('chunk.body') : error.message}
            extra={
              <Button type="primary" onClick={() => window.location.reload()}>
                {t('chunk.reload')}
              </Button>
            }
          />
        )}
      </Translation>
    );
  }
}
