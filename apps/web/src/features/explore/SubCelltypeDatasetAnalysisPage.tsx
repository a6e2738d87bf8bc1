import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ExplorerLayout } from './ExplorerLayout';

/** `/userSubCelltypeDatasetAnalysis?id=<childTaskId>`: explorer of a sub-celltype (child) analysis. */
export default function SubCelltypeDatasetAnalysisPage() {
  const { t } = useTranslation('explore');
  const [params] = useSearchParams();
  const datasetId = params.get('id');
  return <ExplorerLayout title={t('page.subTitle')} datasetId={datasetId} />;
}
