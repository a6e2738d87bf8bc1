import { Tabs, Tooltip } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { PermissionKey } from '@cellcloud/contracts/privileges';
import { useSubsets } from '../../api/explore';
import type { ArtifactClient } from './data/ArtifactClient';
import { TAB_TITLE_KEYS } from './i18nKeys';
import { EmptyAnalysisTab } from './tabs/EmptyAnalysisTab';
import { EXPLORE_TABS, type TabAccess } from './tabs/registry';
import { TaskPanel } from './tasks/TaskPanel';
import { TaskLaunchProvider, type TaskLaunch, type TaskLaunchRequest } from './tasks/taskLaunch';
import type { DrawTiming } from './viewer/EmbeddingViewer';
import { ViewerPanel } from './viewer/ViewerPanel';

export interface ExploreAccess {
  tab: (permission: PermissionKey | null) => TabAccess;
  canonicalMarkers: boolean;
}

interface Props {
  /** the analysis (job) id; null where there is no server (subsets hidden) */
  datasetId: string | null;
  client: ArtifactClient;
  manifest: ArtifactManifest;
  access: ExploreAccess;
  onDrawn?: (t: DrawTiming) => void;
  /**
   * A shared public dataset (issue 20): the viewer and tabs run without a dataset id — the mode
   * without a server, so no subsets, label edits or DEG jobs — and the analysis tasks are hidden.
   */
  readOnly?: boolean;
}

/** Viewer + the tab registry; tabs respect the explore privileges (hidden / disabled). */
export function ExplorerWorkspace({ datasetId: id, client, manifest, access, onDrawn, readOnly }: Props) {
  const { t } = useTranslation('explore');
  const datasetId = readOnly ? null : id;
  const [symbols, setSymbols] = useState<string[]>([]);
  const [selection, setSelection] = useState<number[]>([]);
  const subsets = useSubsets(datasetId);
  const [activeTab, setActiveTab] = useState<string | undefined>(undefined);
  const [launchRequest, setLaunchRequest] = useState<TaskLaunchRequest | null>(null);
  // a task's run form opened from elsewhere (taskLaunch.tsx): its tab, when the reader may use it
  const launcher = useMemo((): TaskLaunch => {
    const tabOf = (task: string) =>
      datasetId === null
        ? undefined
        : EXPLORE_TABS.find(
            (tab) => tab.tasks.some((d) => d.name === task) && access.tab(tab.permission) === 'enabled',
          );
    return {
      can: (task) => tabOf(task) !== undefined,
      launch: (task, params) => {
        const tab = tabOf(task);
        if (!tab) return;
        setActiveTab(tab.key);
        setLaunchRequest({ task, params, nonce: Date.now() });
      },
      request: launchRequest,
    };
  }, [access, datasetId, launchRequest]);
  useEffect(() => {
    void client.geneCatalog().then((g) => setSymbols(g.symbols));
  }, [client]);

  const items = EXPLORE_TABS.flatMap((tab) => {
    const acc = access.tab(tab.permission);
    if (acc === 'hidden') return [];
    const title = t(TAB_TITLE_KEYS[tab.key]!);
    return [
      {
        key: tab.key,
        disabled: acc === 'disabled',
        label:
          acc === 'disabled' ? (
            <Tooltip title={t('tabs.subscribe')}>
              <span>{title}</span>
            </Tooltip>
          ) : (
            <span data-testid={`tab-label-${tab.key}`}>{title}</span>
          ),
        children: (() => {
          const props = {
            client,
            datasetId,
            subsets: subsets.data ?? [],
            manifest,
            symbols,
            selection,
            canonicalMarkers: access.canonicalMarkers,
          };
          const Own = tab.own?.available(manifest) ? tab.own.component : null;
          const own = Own ? <Own {...props} /> : null;
          // The analysis tasks of this tab (issue 11): their run panel and results.
          const tasks =
            tab.tasks.length > 0 && !readOnly ? (
              <TaskPanel tabKey={tab.key} tasks={tab.tasks} {...props} />
            ) : null;
          if (!own && !tasks) return <EmptyAnalysisTab tabKey={tab.key} />;
          return (
            <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
              {own}
              {tasks}
            </div>
          );
        })(),
      },
    ];
  });

  return (
    <TaskLaunchProvider value={launcher}>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        <ViewerPanel
          client={client}
          manifest={manifest}
          datasetId={datasetId}
          subsets={subsets.data ?? []}
          symbols={symbols}
          onSelection={setSelection}
          onDrawn={onDrawn}
        />
        <Tabs
          destroyOnHidden
          items={items}
          activeKey={activeTab ?? items.find((i) => !i.disabled)?.key}
          onChange={setActiveTab}
          className="cc-wrap-tabs"
          data-testid="explore-tabs"
        />
      </div>
    </TaskLaunchProvider>
  );
}
