import { IntegratePage } from './IntegratePage';

/** Route page: integrate public (SynEcoSys) data. */
export default function IntegrateSynEcoSysDataPage() {
  return <IntegratePage source="public" />;
}
