import { Spin } from 'antd';

/** Centered spinner while a page chunk or its first data loads. */
export function PageSpinner() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }} role="status">
      <Spin size="large" />
    </div>
  );
}
