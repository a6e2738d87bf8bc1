import { Form, Select, Space } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { SubsetView } from '@cellcloud/contracts/explore';
import type { GroupSpec } from '@cellcloud/contracts/tasks/define';

// The run form's pickers of annotation levels and their groups (TaskForm.tsx renders them).

export interface LevelOption {
  value: string;
  label: string;
  groups: string[];
}

/** Annotation levels a task can group by: the result's categorical obs and the user's subsets. */
export function levelOptions(manifest: ArtifactManifest, subsets: SubsetView[]): LevelOption[] {
  return [
    ...manifest.obs.flatMap((o) =>
      o.kind === 'categorical' ? [{ value: o.key, label: o.key, groups: o.labels }] : [],
    ),
    ...subsets.map((s) => ({ value: `subset:${s.id}`, label: s.name, groups: s.labels })),
  ];
}

export function GroupPicker({
  value,
  onChange,
  levels,
}: {
  value?: GroupSpec;
  onChange?: (v: GroupSpec) => void;
  levels: LevelOption[];
}) {
  const { t } = useTranslation('tasks');
  const cond = value?.[0];
  const level = levels.find((l) => l.value === cond?.key);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select
        style={{ width: '40%' }}
        placeholder={t('form.level')}
        options={levels.map((l) => ({ value: l.value, label: l.label }))}
        value={cond?.key}
        onChange={(key: string) => onChange?.([{ key, values: [] }])}
      />
      <Select
        mode="multiple"
        style={{ width: '60%' }}
        placeholder={t('form.groups')}
        options={(level?.groups ?? []).map((g) => ({ value: g, label: g }))}
        value={cond?.values ?? []}
        onChange={(values: string[]) => cond && onChange?.([{ key: cond.key, values }])}
      />
    </Space.Compact>
  );
}

/** Multi-select of the groups of the level currently chosen in another field (hint `values`). */
export function LevelValues({
  value,
  onChange,
  levels,
  levelParam,
}: {
  value?: string[];
  onChange?: (v: string[]) => void;
  levels: LevelOption[];
  levelParam: string;
}) {
  const chosen = Form.useWatch(levelParam, Form.useFormInstance()) as string | undefined;
  const groups = levels.find((l) => l.value === chosen)?.groups;
  // another level chosen: the values picked in the previous one (e.g. CNV reference types) that
  // the new level does not have are dropped, so a stale choice is neither shown nor sent
  const previous = useRef(chosen);
  useEffect(() => {
    const changed = previous.current !== undefined && previous.current !== chosen;
    previous.current = chosen;
    if (!changed || !groups || !value?.length) return;
    const kept = value.filter((v) => groups.includes(v));
    if (kept.length !== value.length) onChange?.(kept);
  }, [chosen, groups, value, onChange]);
  return (
    <Select
      mode="multiple"
      allowClear
      value={value ?? []}
      onChange={onChange}
      options={(groups ?? []).map((g) => ({ value: g, label: g }))}
    />
  );
}
