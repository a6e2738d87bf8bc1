import { Alert, Button, Collapse, Form, Input, InputNumber, Select, Switch, Typography, Upload } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { SubsetView } from '@cellcloud/contracts/explore';
import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';
import { formParams, paramErrors } from './formErrors';
import { GroupPicker, LevelValues, levelOptions } from './levelPickers';
import { i18nPrefix } from './paramText';
import { useTaskDefaults } from './useTaskDefaults';

/** JSON Schema of one param as zod's toJSONSchema writes it (the parts the form reads). */
interface ParamSchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  items?: ParamSchema;
  anyOf?: ParamSchema[];
}

/**
 * The fields of a section, wrapping: flex items (not antd Space, whose wrappers size to their
 * content) so a field's `min(280px, 100%)` is of the form's width and a 390 px screen shows each
 * picker at full width instead of squeezed.
 */
const FIELD_ROW = {
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'flex-start',
  columnGap: 16,
  rowGap: 8,
  maxWidth: '100%',
} as const;

interface Props {
  definition: TaskDefinition;
  /** The dataset: its defaults (level, CNV reference, species…) are shown filled in, with their reasons. */
  datasetId?: string;
  manifest: ArtifactManifest;
  subsets: SubsetView[];
  symbols: string[];
  /** Finished runs of the tasks this one depends on (`dependsOn`), for a `source` field. */
  sources?: { value: string; label: string }[];
  busy: boolean;
  /** Params chosen elsewhere (the explorer's "compute this layout"): filled in as the user's choice. */
  preset?: { params: Record<string, unknown>; nonce: number } | null;
  onSubmit: (params: Record<string, unknown>, uploads: Record<string, File>) => void;
}

/**
 * The run form of a task, generated from its contract: the params schema (numbers with their
 * bounds, enums, booleans, strings, string lists), the definition's form hints (annotation level,
 * group, genes, fixed options, step-1 source, hidden) and its file uploads. Labels: `tasks:<camelName>.params.<name>`.
 */
export function TaskForm({
  definition,
  datasetId,
  manifest,
  subsets,
  symbols,
  sources,
  busy,
  preset,
  onSubmit,
}: Props) {
  const { t, i18n } = useTranslation('tasks');
  const [form] = Form.useForm<Record<string, unknown>>();
  // fields the user changed (onValuesChange): form.isFieldTouched is no guide, the form library
  // marks a field touched when setFieldsValue fills it, so every filled default looked chosen and
  // was sent (a cell score run with a file then also carried the built-in set and was refused)
  const changedByUser = useRef(new Set<string>());
  // fields a dataset default filled in: a newer answer (a finished run changes them: enrich then
  // builds on that run instead of the default groups) empties the ones it no longer fills
  const filledByDefault = useRef(new Set<string>());
  const [files, setFiles] = useState<Record<string, File>>({});
  // dataset defaults (issue 31), filled into the fields the user has not touched
  const defaults = useTaskDefaults(datasetId, definition.name, i18n.language, Object.keys(files)).data;
  useEffect(() => {
    if (!defaults) return;
    const fill = Object.entries(defaults.params).filter(([k]) => !changedByUser.current.has(k));
    const stale = [...filledByDefault.current].filter(
      (k) => !(k in defaults.params) && !changedByUser.current.has(k),
    );
    for (const k of stale) filledByDefault.current.delete(k);
    for (const [k] of fill) filledByDefault.current.add(k);
    if (fill.length || stale.length)
      form.setFieldsValue({
        ...Object.fromEntries(stale.map((k) => [k, undefined])),
        ...Object.fromEntries(fill),
      });
  }, [defaults, form]);
  useEffect(() => {
    if (!preset) return;
    for (const k of Object.keys(preset.params)) changedByUser.current.add(k);
    form.setFieldsValue(preset.params);
  }, [preset, form]);
  const reasons = new Map((defaults?.reasons ?? []).map((r) => [r.field, r.text]));
  const { properties, required } = useMemo(() => {
    const js = z.toJSONSchema(definition.params, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, ParamSchema>;
      required?: string[];
    };
    const props = Object.entries(js.properties ?? {});
    // required = not optional in the params schema and no default (issue 31: empty, unmarked
    // fields were refused after queuing)
    const req = new Set(
      props.filter(([k, p]) => js.required?.includes(k) && p.default === undefined).map(([k]) => k),
    );
    return { properties: props, required: req };
  }, [definition]);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [formError, setFormError] = useState<string[]>([]);
  // required uploads without a file (e.g. the V(D)J contig file), by upload name
  const [missingFiles, setMissingFiles] = useState<string[]>([]);
  const levels = useMemo(() => levelOptions(manifest, subsets), [manifest, subsets]);
  const initial = Object.fromEntries(
    properties.filter(([, p]) => p.default !== undefined).map(([k, p]) => [k, p.default]),
  );
  const geneOptions = useMemo(() => symbols.map((s) => ({ value: s, label: s })), [symbols]);
  const prefix = i18nPrefix(definition);
  const label = (name: string) => t(`${prefix}.params.${name}`, { defaultValue: name });
  const option = (name: string, v: string) => t(`${prefix}.options.${name}.${v}`, { defaultValue: v });

  const field = (name: string, p: ParamSchema) => {
    const hint = definition.fields?.[name];
    const schema = p.anyOf?.find((x) => x.type !== 'null') ?? p;
    if (hint?.kind === 'level')
      return <Select allowClear options={levels.map((l) => ({ value: l.value, label: l.label }))} />;
    if (hint?.kind === 'group') return <GroupPicker levels={levels} />;
    if (hint?.kind === 'source')
      return <Select allowClear placeholder={t('form.sourceNone')} options={sources ?? []} />;
    if (hint?.kind === 'values') return <LevelValues levels={levels} levelParam={hint.level} />;
    if (hint?.kind === 'genes')
      return (
        <Select
          mode="tags"
          allowClear
          options={geneOptions}
          tokenSeparators={[',', ' ', '\n']}
          maxTagCount={20}
        />
      );
    if (hint?.kind === 'options')
      return <Select allowClear options={hint.values.map((v) => ({ value: v, label: option(name, v) }))} />;
    if (schema.enum)
      return (
        <Select options={schema.enum.map((v) => ({ value: v as string, label: option(name, String(v)) }))} />
      );
    if (schema.type === 'integer' || schema.type === 'number') {
      return (
        <InputNumber
          min={schema.minimum}
          max={schema.maximum}
          step={schema.type === 'integer' ? 1 : 0.01}
          style={{ width: 160 }}
        />
      );
    }
    if (schema.type === 'boolean') return <Switch />;
    if (schema.type === 'array' && schema.items?.enum)
      return (
        <Select
          mode="multiple"
          allowClear
          options={schema.items.enum.map((v) => ({ value: v as string, label: option(name, String(v)) }))}
        />
      );
    if (schema.type === 'array') return <Select mode="tags" allowClear />;
    return <Input allowClear />;
  };

  const isAdvanced = (name: string) => definition.fields?.[name]?.advanced === true;
  const submit = () => {
    // every field, the collapsed Advanced ones included
    const values = form.getFieldsValue(true) as Record<string, unknown>;
    // checked with the task's own params schema first: nothing is queued while a field is invalid
    const problems = paramErrors(definition, values, t);
    const missing = (definition.uploads ?? []).filter((u) => u.required && !files[u.name]).map((u) => u.name);
    setMissingFiles(missing);
    if (problems.length || missing.length) {
      form.setFields(problems.flatMap((p) => (p.name ? [{ name: p.name, errors: p.errors }] : [])));
      setFormError(problems.flatMap((p) => (p.name ? [] : p.errors)));
      if (problems.some((p) => p.name && isAdvanced(p.name))) setAdvancedOpen(true);
      return;
    }
    setFormError([]);
    // an untouched dataset default is not sent: the server resolves it again by the same rules,
    // which also see the uploads (a gene set file replaces the default built-in set)
    const params = Object.fromEntries(
      Object.entries(formParams(values)).filter(
        ([k]) =>
          shown.some(([name]) => name === k) &&
          !(filledByDefault.current.has(k) && !changedByUser.current.has(k)),
      ),
    );
    onSubmit(params, files);
  };

  const item = ([name, p]: [string, ParamSchema]) => (
    <Form.Item
      key={name}
      name={name}
      label={label(name)}
      required={required.has(name)}
      tooltip={t(`${prefix}.help.${name}`, { defaultValue: '' }) || undefined}
      valuePropName={p.type === 'boolean' ? 'checked' : 'value'}
      style={{
        minWidth: definition.fields?.[name]?.kind ? 'min(280px, 100%)' : 'min(160px, 100%)',
        maxWidth: 'min(480px, 100%)',
        marginBottom: 8,
      }}
      extra={
        reasons.get(name) ?? (definition.fields?.[name]?.kind === 'source' ? t('form.sourceHint') : undefined)
      }
      data-testid={`task-field-${name}`}
    >
      {field(name, p)}
    </Form.Item>
  );
  const shown = properties.filter(([name]) => definition.fields?.[name]?.kind !== 'hidden');
  const main = shown.filter(([name]) => !isAdvanced(name));
  const advanced = shown.filter(([name]) => isAdvanced(name));

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initial}
      onValuesChange={(changed: Record<string, unknown>) => {
        for (const k of Object.keys(changed)) changedByUser.current.add(k);
        // a changed field's problem is checked again at the next Run
        form.setFields(Object.keys(changed).map((name) => ({ name, errors: [] })));
      }}
      onFinish={submit}
      data-testid={`task-form-${definition.name}`}
    >
      {defaults?.missing.map((m) => (
        <Alert
          key={m.field}
          type="warning"
          showIcon
          message={m.text}
          style={{ marginBottom: 8 }}
          data-testid={`task-default-missing-${m.field}`}
        />
      ))}
      <div style={FIELD_ROW}>
        {main.map(item)}
        {(definition.uploads ?? []).map((u) => (
          <Form.Item
            key={u.name}
            label={t(`${prefix}.uploads.${u.name}`)}
            required={u.required}
            validateStatus={missingFiles.includes(u.name) ? 'error' : undefined}
            help={
              missingFiles.includes(u.name)
                ? t('form.errors.file', { label: t(`${prefix}.uploads.${u.name}`) })
                : undefined
            }
            tooltip={t(`${prefix}.uploadHelp.${u.name}`, { defaultValue: '' }) || undefined}
            style={{ marginBottom: 8, maxWidth: '100%' }}
            data-testid={`task-upload-${u.name}`}
          >
            <Upload
              accept={u.accept}
              maxCount={1}
              beforeUpload={(file) => {
                setFiles((f) => ({ ...f, [u.name]: file }));
                setMissingFiles((m) => m.filter((n) => n !== u.name));
                return false;
              }}
              onRemove={() =>
                setFiles((f) => {
                  const next = { ...f };
                  delete next[u.name];
                  return next;
                })
              }
            >
              <Button>{t('form.chooseFile')}</Button>
            </Upload>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('form.fileHint', { accept: u.accept, kb: Math.floor(u.maxBytes / 1024) })}
            </Typography.Text>
          </Form.Item>
        ))}
      </div>
      {advanced.length > 0 && (
        <Collapse
          size="small"
          style={{ width: '100%', marginBottom: 12 }}
          activeKey={advancedOpen ? ['advanced'] : []}
          onChange={(keys) => setAdvancedOpen(([] as string[]).concat(keys).includes('advanced'))}
          items={[
            {
              key: 'advanced',
              label: t('form.advanced'),
              // rendered while collapsed: the fields keep their defaults and take errors
              forceRender: true,
              children: (
                <>
                  <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                    {t('form.advancedHint')}
                  </Typography.Paragraph>
                  <div style={FIELD_ROW}>{advanced.map(item)}</div>
                </>
              ),
            },
          ]}
          data-testid={`task-advanced-${definition.name}`}
        />
      )}
      {formError.map((e) => (
        <Alert key={e} type="error" showIcon message={e} style={{ marginBottom: 8 }} />
      ))}
      {/* a long task name wraps inside the button: on a 390 px screen "Run Differential
          expression between two groups" on one line made the whole page scroll sideways */}
      <Button
        type="primary"
        htmlType="submit"
        loading={busy}
        style={{ maxWidth: '100%', height: 'auto', minHeight: 32, whiteSpace: 'normal' }}
        data-testid={`task-run-${definition.name}`}
      >
        {t('form.run', { task: t(`${prefix}.title`) })}
      </Button>
    </Form>
  );
}
