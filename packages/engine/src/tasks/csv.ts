/** The task table codec lives with the output format in contracts (shared with the web views). */
export { csvToTable, tableToCsv } from '@cellcloud/contracts/tasks/csv';
