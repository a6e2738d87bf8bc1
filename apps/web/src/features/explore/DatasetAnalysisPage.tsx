import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ExplorerLayout } from './ExplorerLayout';

/** `/userDatasetAnalysis?id=<datasetId>`: the explorer of one analysed dataset (docs/product/screens.md#routes-after-login). */
export default function DatasetAnalysisPage() {
  const { t } = useTranslation('explore');
  const [params] = useSearchParams();
  const datasetId = params.get('id');
  return <ExplorerLayout title={t('page.title')} datasetId={datasetId} />;
}
