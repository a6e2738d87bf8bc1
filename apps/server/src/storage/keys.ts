/**
 * Every storage key of the platform, built here and nowhere else (docs/glossary.md for the words).
 *
 *   raw/<uploadId>/<i>                         an upload's files as received (tus)
 *   datasets/<uploadId>/                       the parsed sample: counts.h5ad + manifest.json
 *   preprocess/<draftId>/<run>/qc.json         the wizard's cell-filtering evaluation
 *   results/<resultId>/                        an analysis result: analysis.h5ad, markers.csv, artifacts/
 *   results/<resultId>/tasks/<taskId>/         an analysis task's outputs (docs/artifacts.md)
 *   results/<resultId>/task-uploads/<taskId>/  files uploaded for a task
 *   tmp/results/<jobId>/<attempt>/             staging of an analysis attempt before the atomic publish
 *   tmp/tasks/<taskId>/<attempt>/              staging of a task attempt
 *   tmp/checkpoints/<jobId>/state.ckpt         an analysis's last checkpoint (resumed by a retry)
 *   explore/<datasetId>/subsets/<id>.u32       a subset's per-cell codes
 *   explore/<datasetId>/deg/<id>.codes|.json   a DE calculation's groups and rows
 *   explore/<parentId>/children/<childId>.u32  the parent cells of a sub-celltype analysis
 *   downloads/<requestId>/<file>               a prepared download
 *   videos/<videoId>                           a tutorial video (admin console)
 */
export const rawPrefix = (uploadId: string) => `raw/${uploadId}/`;
export const rawFileKey = (uploadId: string, index: number) => `${rawPrefix(uploadId)}${index}`;
export const datasetPrefix = (uploadId: string) => `datasets/${uploadId}/`;
export const preprocessPrefix = (draftId: string) => `preprocess/${draftId}/`;
export const preprocessKey = (draftId: string, run: number) => `${preprocessPrefix(draftId)}${run}/qc.json`;
export const resultsPrefix = (resultId: string) => `results/${resultId}/`;
export const taskOutputPrefix = (resultId: string, taskId: string) =>
  `${resultsPrefix(resultId)}tasks/${taskId}/`;
export const taskUploadKey = (resultId: string, taskId: string, name: string) =>
  `${resultsPrefix(resultId)}task-uploads/${taskId}/${name}`;
export const stagingPrefix = (jobId: string, attempt: number) => `tmp/results/${jobId}/${attempt}/`;
export const checkpointPrefix = (jobId: string) => `tmp/checkpoints/${jobId}/`;
export const taskStagingPrefix = (taskId: string, attempt: number) => `tmp/tasks/${taskId}/${attempt}/`;
export const subsetCodesKey = (datasetId: string, id: string) => `explore/${datasetId}/subsets/${id}.u32`;
export const degCodesKey = (datasetId: string, id: string) => `explore/${datasetId}/deg/${id}.codes`;
export const degResultKey = (datasetId: string, id: string) => `explore/${datasetId}/deg/${id}.json`;
export const childCellsKey = (parentId: string, childId: string) =>
  `explore/${parentId}/children/${childId}.u32`;
export const downloadPrefix = (requestId: string) => `downloads/${requestId}/`;
export const downloadKey = (requestId: string, fileName: string) => `${downloadPrefix(requestId)}${fileName}`;
export const videoKey = (videoId: string) => `videos/${videoId}`;
