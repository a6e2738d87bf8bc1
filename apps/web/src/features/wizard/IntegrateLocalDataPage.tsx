import { IntegratePage } from './IntegratePage';

/** Route page: integrate local data. */
export default function IntegrateLocalDataPage() {
  return <IntegratePage source="local" />;
}
