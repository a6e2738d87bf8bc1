import type { TaskHost } from '@cellcloud/tasks/web';
import {
  exportTaskTableCsv,
  fetchTaskFile,
  fetchTaskTableCsv,
  fetchTaskTablePage,
  useCreateTask,
} from '../../../api/tasks';
import { EChart } from '../charts/EChart';
import type { ChartOption } from '../charts/echarts';
import { EmbeddingViewer } from '../viewer/EmbeddingViewer';
import { svgToTiff } from '../../../api/exploreJobs';
import { downloadBlob, exportScale } from '../viewer/exportImage';

/**
 * What the app gives the task folders' views (packages/tasks/src/_shared/web/host.tsx): the
 * authenticated output reads of src/api, the explorer's chart and embedding components, downloads.
 */
export const TASK_HOST: TaskHost = {
  api: {
    file: fetchTaskFile,
    tableCsv: fetchTaskTableCsv,
    tablePage: fetchTaskTablePage,
    exportTableCsv: exportTaskTableCsv,
  },
  components: {
    // the shared builders return full ECharts options; the app's chart registers what they use
    Chart: ({ option, ...rest }) => <EChart option={option as ChartOption} {...rest} />,
    Embedding: (props) => <EmbeddingViewer {...props} />,
  },
  download: downloadBlob,
  useCreateTask: (datasetId) => {
    const create = useCreateTask(datasetId);
    return { pending: create.isPending, create: (body, done) => create.mutate(body, done) };
  },
  exportScale: (heightPx) => exportScale(heightPx),
  svgToTiff,
};
