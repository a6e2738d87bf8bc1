/**
 * Renders the docs figure of docs/methods/cnv.md headless: the `cnv` task on the inferCNV oligodendroglioma
 * example (shared data, its annotations; references Microglia/Macrophage + Oligodendrocytes
 * (non-malignant)), drawn with the web view's own heat-map code (heatmapRender.ts: body raster +
 * SVG decorations), rasterised by sharp. Prints the per-arm means of each group for the docs table.
 *   npx tsx scripts/docs/cnv-figure.ts [out.png]
 */
import path from 'node:path';
import sharp from 'sharp';
import { definition as cnvTask, type CnvHeatmapLayout } from '../../packages/tasks/src/cnv/contract';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { engine as cnvEngineTask } from '../../packages/tasks/src/cnv/engine';
import { MemorySink } from '@cellcloud/engine/tasks/kit';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { geometry, heatmapSvg, renderBody } from '../../packages/tasks/src/cnv/web/heatmapRender';
import { oligo } from '../../packages/tasks/test/cnv/fixtures';

const out =
  process.argv[2] ?? path.resolve(import.meta.dirname, '../../docs/images/cnv-oligodendroglioma.png');
const result = await oligo();
const sink = new MemorySink();
await cnvEngineTask.run({
  result,
  params: cnvTask.params.parse({
    groupBy: 'cell_type',
    reference: ['Microglia/Macrophage', 'Oligodendrocytes (non-malignant)'],
  }),
  onProgress: () => {},
  sink,
  resources: nodeResourceReader(SHARED_DATA_DIR),
});
const layout = sink.datas.get('heatmap') as CnvHeatmapLayout;
const bytes = sink.datas.get('heatmap.bin') as Uint8Array;
const W = 1400;
const H = 700;
const g = geometry(W, H);
const bw = Math.round(g.bodyW);
const bh = Math.round(g.bodyH);
const body = await sharp(Buffer.from(renderBody(layout, bytes, bw, bh)), {
  raw: { width: bw, height: bh, channels: 4 },
})
  .png()
  .toBuffer();
const svg = heatmapSvg(
  layout,
  `data:image/png;base64,${body.toString('base64')}`,
  { ...g, bodyW: bw, bodyH: bh },
  'type',
  { legend: 'Relative expression' },
);
await sharp(Buffer.from(svg)).png().toFile(out);
console.log(`wrote ${out}`);
const arms = ['1p', '1q', '4p', '4q', '7p', '7q', '12p', '13q', '19p', '19q', '20p'];
console.log(`| group | ${arms.join(' | ')} |`);
console.log(`|---|${arms.map(() => '---').join('|')}|`);
const tab = new Map<string, Map<string, number>>();
for (const [grp, kind, , arm, mean] of sink.tables.get('arm_groups')!.rows) {
  if (kind !== 'type') continue;
  if (!tab.has(String(grp))) tab.set(String(grp), new Map());
  tab.get(String(grp))!.set(String(arm), Number(mean));
}
for (const [grp, m] of tab)
  console.log(`| ${grp} | ${arms.map((a) => m.get(a)?.toFixed(3) ?? '').join(' | ')} |`);
