import type { Queryable } from '../client';

export interface ResultJobRow {
  id: string;
  analysis_id: string;
  job_name: string;
  result_of: string | null;
  finished_at: Date | null;
}

export interface ResultTaskRow {
  id: string;
  dataset_id: string;
  task: string;
  output_prefix: string;
  finished_at: Date | null;
}

export interface CelescopeUploadRow {
  id: string;
  sample_name: string;
  state: 'uploading' | 'parsing' | 'completed' | 'failed';
  retryable: boolean;
  total_size: string | number;
  created_at: Date;
}

/** SQL of the My Analyses file tabs. */
export const myFilesRepo = {
  async completedJobs(q: Queryable, userId: string): Promise<ResultJobRow[]> {
    return q.query<ResultJobRow>(
      `SELECT id, analysis_id, job_name, result_of, finished_at FROM analysis_jobs
        WHERE user_id = $1 AND status = 'completed' ORDER BY finished_at DESC NULLS LAST LIMIT 500`,
      [userId],
    );
  },
  async completedTasks(q: Queryable, userId: string): Promise<ResultTaskRow[]> {
    return q.query<ResultTaskRow>(
      `SELECT id, dataset_id, task, output_prefix, finished_at FROM analysis_tasks
        WHERE user_id = $1 AND status = 'completed' ORDER BY finished_at DESC NULLS LAST LIMIT 1000`,
      [userId],
    );
  },
  async celescopeUploads(q: Queryable, userId: string): Promise<CelescopeUploadRow[]> {
    return q.query<CelescopeUploadRow>(
      `SELECT id, sample_name, state, retryable, total_size, created_at FROM uploads
        WHERE user_id = $1 AND kind = 'celescope' ORDER BY sample_name`,
      [userId],
    );
  },
};
