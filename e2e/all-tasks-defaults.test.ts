import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';
import { TASKS } from '@cellcloud/tasks/contract';
import { TASK_MESSAGES } from '@cellcloud/tasks/messages';
import { sharedData } from '@cellcloud/testkit';
import { repoRoot } from './support/build';
import { screenshot, switchLanguage } from './support/browser';
import { newUser } from './support/flows';
import { attachMatchedContigs } from './support/vdj-contigs';
import {
  openWhenCompleted,
  submitWizard,
  upload10xSample,
  wizardEnv,
  wizardStep1,
  type WizardEnv,
} from './support/wizard-setup';

/**
 * Issue 31, "one click to a result", in the browser: pbmc3k is analysed by the wizard with
 * automatic annotation (human, blood); then, for EVERY task of every explore tab (the registry of
 * @cellcloud/tasks, grouped by the tab its contract names, in the product's task order so the DE
 * run exists before enrichment and GSEA), the tab is opened, the form waits for the defaults the
 * server computed from the dataset (GET …/tasks/defaults) and Run is pressed without changing
 * anything. Each run completes and shows its result view (V(D)J: with the shipped 10x contigs
 * re-barcoded onto pbmc3k, as e2e/explore-vdj.test.ts does). Then the UI language is switched and
 * every tab is visited again: each task's panel title and result view are in Chinese, and no
 * text shows an untranslated message key, an internal parameter name as a field label, or
 * `[object`. One analysis, one run per task.
 */
const pbmcDir = sharedData('pbmc3k/10x');
const geneLists = sharedData('gene_ids');
const contigs = sharedData('vdj_10x/vdj_nextgem_hs_pbmc3_t_filtered_contig_annotations.csv.gz');
const have = pbmcDir !== undefined && geneLists !== undefined && contigs !== undefined;

let env: WizardEnv;
let page: Page;
const user = newUser('alltasks');

/** The tasks by explore tab, in task order (a tab's first task decides the tab's place). */
function tasksByTab(): [string, TaskDefinition[]][] {
  const tabs = new Map<string, TaskDefinition[]>();
  for (const t of TASKS) tabs.set(t.tab, [...(tabs.get(t.tab) ?? []), t]);
  return [...tabs];
}

const camel = (name: string) => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The web `tasks` namespace's own file (titles of the tasks without a folder yet). */
function webTasksJson(lang: 'en-US' | 'zh-CN'): Record<string, { title?: string }> {
  return JSON.parse(
    readFileSync(path.join(repoRoot, `apps/web/src/i18n/locales/${lang}/tasks.json`), 'utf8'),
  ) as Record<string, { title?: string }>;
}

/** The panel title a task shows in a language (its folder's messages, else the web namespace). */
function title(def: TaskDefinition, lang: 'en-US' | 'zh-CN'): string {
  const own = (TASK_MESSAGES[def.name]?.[lang] as { title?: string } | undefined)?.title;
  const t = own ?? webTasksJson(lang)[camel(def.name)]?.title;
  if (!t) throw new Error(`no ${lang} title for task ${def.name}`);
  return t;
}

/** Text a translated view never shows: a message key of the tasks namespace, `[object`, `undefined`. */
function badText(text: string, def: TaskDefinition): string | null {
  const key = new RegExp(
    `\\b(?:${camel(def.name)}|tasks|form|status|history|view|defaults)\\.(?:title|params|options|uploads|view|figures|failures|[a-z]+[A-Z][A-Za-z]*)\\b`,
  );
  const m = key.exec(text) ?? /\[object|\bundefined\b|\bNaN\b/.exec(text);
  return m ? m[0] : null;
}

/** Opens a tab and waits until every task panel of it has its dataset defaults. */
async function openTab(tab: string, defs: TaskDefinition[]): Promise<void> {
  const answers = defs.map((d) =>
    page.waitForResponse(
      (r) => r.url().includes('/tasks/defaults') && new URL(r.url()).searchParams.get('task') === d.name,
      { timeout: 60_000 },
    ),
  );
  await page.getByTestId(`tab-label-${tab}`).click();
  for (const [i, a] of answers.entries()) {
    const r = await a;
    expect(r.status(), `defaults of ${defs[i]!.name}`).toBe(200);
    const d = ((await r.json()) as { data: { params: unknown; reasons: { field: string; text: string }[] } })
      .data;
    console.log(
      `defaults ${defs[i]!.name}:`,
      JSON.stringify(d.params),
      d.reasons.map((x) => x.text).join(' | '),
    );
  }
  for (const d of defs) await page.getByTestId(`task-panel-${d.name}`).waitFor({ timeout: 60_000 });
}

/** The result view of a task's newest completed run (its own view, or the generic table view). */
function resultView(panel: Locator, def: TaskDefinition): Locator {
  return panel.getByTestId(`${def.name}-view`).or(panel.getByText(/\d+ rows|\d+ 行/).first());
}

/** Field labels that are the internal parameter name instead of a translated label. */
async function rawLabels(panel: Locator): Promise<string[]> {
  return panel.locator('[data-testid^=task-field-]').evaluateAll((els) =>
    els.flatMap((el) => {
      const name = el.getAttribute('data-testid')!.slice('task-field-'.length);
      const label = el.querySelector('label')?.textContent?.trim() ?? '';
      return label === name && /[a-z][A-Z]|^[a-z]+$/.test(name) ? [name] : [];
    }),
  );
}

/**
 * The CNV reference picker drops the types of the previous level when another level is chosen
 * (the clusters have none of the automatic annotation's type names), so no stale reference is
 * shown or sent. Nothing is run.
 */
async function referenceFollowsLevel(panel: Locator): Promise<void> {
  const chosen = panel.getByTestId('task-field-reference').locator('.ant-select-selection-item-content');
  expect((await chosen.allTextContents()).length).toBeGreaterThan(0);
  await panel.getByTestId('task-field-groupBy').locator('.ant-select').first().click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
      hasText: /^cluster$/,
    })
    .click();
  await expect.poll(() => chosen.allTextContents(), { timeout: 10_000 }).toEqual([]);
}

describe.skipIf(!have)('every task of every explore tab runs on its defaults, in both languages', () => {
  beforeAll(async () => {
    env = await wizardEnv(user, geneLists!, upload10xSample('pbmc3k', pbmcDir!));
    page = env.tp.page;
  }, 300_000);
  afterAll(() => env?.close());

  it('analyses pbmc3k by the wizard with automatic annotation and opens the result', async () => {
    await page.goto('/integrateLocalData');
    await page.getByTestId('wizard-step-1').waitFor();
    await wizardStep1(page, 'pbmc3k_all_tasks', 'pbmc3k');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-2').waitFor();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-3').waitFor();
    await page.locator('[data-testid=wizard-annotation] input[type=radio][value=auto]').check();
    await page.getByTestId('wizard-tissue').fill('blood');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-4').waitFor();
    const row = await submitWizard(page, 'pbmc3k_all_tasks');
    await openWhenCompleted(page, row, 900_000);
    await page.getByTestId('explore-tabs').waitFor({ timeout: 60_000 });
  }, 960_000);

  it('runs every task with Run pressed on the prefilled form and shows each result view', async () => {
    const seconds: Record<string, number> = {};
    for (const [tab, defs] of tasksByTab()) {
      await openTab(tab, defs);
      for (const def of defs) {
        const started = Date.now();
        const panel = page.getByTestId(`task-panel-${def.name}`);
        // the dataset determines every required field: none is left for the user
        await expect(
          panel.locator('[data-testid^=task-default-missing-]').allTextContents(),
        ).resolves.toEqual([]);
        expect(await rawLabels(panel), `${def.name}: field labels`).toEqual([]);
        if (def.name === 'vdj') await attachMatchedContigs(panel, pbmcDir!, contigs!);
        await panel.getByTestId(`task-run-${def.name}`).click();
        const done = panel.locator(`[data-testid=task-history-${def.name}] .ant-tag-green`);
        const failed = panel.getByTestId('task-failure').or(panel.getByTestId('task-error'));
        await done.or(failed).first().waitFor({ timeout: 600_000 });
        if (await failed.first().isVisible())
          throw new Error(
            `${def.name} did not complete on its defaults: ${await failed.first().textContent()}`,
          );
        const view = resultView(panel, def);
        await view.first().waitFor({ timeout: 120_000 });
        const text = (await view.first().textContent()) ?? '';
        expect(badText(text, def), `${def.name} view (en-US): ${text.slice(0, 300)}`).toBeNull();
        await expect(panel.locator('.ant-card-head-title').first().textContent()).resolves.toBe(
          title(def, 'en-US'),
        );
        seconds[def.name] = Math.round((Date.now() - started) / 100) / 10;
        const sent = await panel.locator(`[data-testid=task-history-${def.name}] .ant-table-row`).first();
        console.log(`ran ${def.name} in ${seconds[def.name]} s:`, await sent.textContent());
        if (def.name === 'cnv') await referenceFollowsLevel(panel);
      }
      await screenshot(page, `all-tasks-${tab}`);
    }
    console.log('task runs from the browser (s):', seconds);
    expect(Object.keys(seconds).sort()).toEqual(TASKS.map((t) => t.name).sort());
  }, 3_000_000);

  it('shows every result view translated after switching the language', async () => {
    await switchLanguage(page);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    for (const [tab, defs] of tasksByTab()) {
      await page.getByTestId(`tab-label-${tab}`).click();
      for (const def of defs) {
        const panel = page.getByTestId(`task-panel-${def.name}`);
        await panel.waitFor({ timeout: 60_000 });
        await expect(panel.locator('.ant-card-head-title').first().textContent()).resolves.toBe(
          title(def, 'zh-CN'),
        );
        const view = resultView(panel, def);
        await view.first().waitFor({ timeout: 120_000 });
        // the view re-rendered in Chinese: its text has Chinese characters and no untranslated key
        await expect
          .poll(async () => /[\u4e00-\u9fff]/.test((await view.first().textContent()) ?? ''), {
            timeout: 30_000,
          })
          .toBe(true);
        const text = (await view.first().textContent()) ?? '';
        expect(badText(text, def), `${def.name} view (zh-CN): ${text.slice(0, 300)}`).toBeNull();
        expect(await rawLabels(panel), `${def.name}: field labels (zh-CN)`).toEqual([]);
      }
      await screenshot(page, `all-tasks-${tab}`);
    }
    // no console error on the way (a chart disposed mid-paint once threw here: EChart.tsx)
    expect(env.tp.errors).toEqual([]);
  }, 600_000);
});
