import { IntegratePage } from './IntegratePage';

/** Route page: integrate local and public data. */
export default function IntegrateLocalAndSynEcoSysPage() {
  return <IntegratePage source="both" />;
}
