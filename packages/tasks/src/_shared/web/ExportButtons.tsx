import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { toCsv, toXlsx, type Cell } from '@cellcloud/formats/table-export';
import { useTaskHost } from './host';

/** CSV and XLSX export of the rows the user sees (header as shown). */
export function ExportButtons({
  header,
  rows,
  fileName,
  testId,
}: {
  header: string[];
  rows: () => Cell[][];
  fileName: string;
  testId?: string;
}) {
  const { t } = useTranslation('enrichment');
  const { download } = useTaskHost();
  return (
    <Space size={4}>
      <Button
        data-testid={testId ? `${testId}-csv` : undefined}
        onClick={() => download(new Blob([toCsv(header, rows())], { type: 'text/csv' }), `${fileName}.csv`)}
      >
        {t('export.csv')}
      </Button>
      <Button
        data-testid={testId ? `${testId}-xlsx` : undefined}
        onClick={() =>
          download(
            new Blob([toXlsx(fileName.slice(0, 31), header, rows()) as BlobPart], {
              type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            }),
            `${fileName}.xlsx`,
          )
        }
      >
        {t('export.xlsx')}
      </Button>
    </Space>
  );
}
